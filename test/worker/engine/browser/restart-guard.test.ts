import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createConversation, eventually, uniqueKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, ok, page } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The same page server under a host name outside the allowed list. */
const outside = (path: string) => page(path).replace("127.0.0.1", "localhost");
const hitUrl = (id: string, at: (path: string) => string = page) =>
  at(`/guard/hit?id=${encodeURIComponent(id)}`);

/** The methods of the requests the page server saw for a marker. */
async function hits(id: string): Promise<string[]> {
  const res = await fetch(page(`/guard/hits?id=${encodeURIComponent(id)}`));
  return ((await res.json()) as { methods: string[] }).methods;
}

/** Waits until a page's requests held on the server for the test's word are so many (waiting, dropped by the browser). */
async function held(id: string, waiting: number, dropped = 0): Promise<void> {
  let seen = { waiting: -1, dropped: -1 };
  await eventually(async () => {
    seen = (await (await fetch(page(`/guard/held?id=${id}`))).json()) as typeof seen;
    return seen.waiting === waiting && seen.dropped === dropped;
  }, 20_000).catch(() => {
    // What the server last saw says which way it failed (the worker never asked, or lived on).
    expect(seen).toEqual({ waiting, dropped });
  });
}

/** The fleet object alone restarts (the Browser Rendering session lives on), then wakes by its alarm. */
async function restartFleet(): Promise<void> {
  await runInDurableObject(fleetObject(), (_obj, state) => state.abort("restart")).catch(() => {});
  expect(await runDurableObjectAlarm(fleetObject())).toBe(true);
}

/**
 * A conversation limited to 127.0.0.1 whose page started a worker of `kind` that waits for the
 * test's word, then fetches outside the list, then says it is done.
 */
async function workerWaiting(kind: string): Promise<{ conv: string; mark: string }> {
  const mark = uniqueKey(`${kind}-restart`);
  const conv = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
  await ok(conv, "open_tab", { url: page("/hello") });
  const code = `fetch(${JSON.stringify(page(`/guard/wait?id=${mark}`))})
    .then(() => fetch(${JSON.stringify(hitUrl(`${mark}-after`, outside))}, { mode: "no-cors" }).catch(() => null))
    .then(() => fetch(${JSON.stringify(hitUrl(`${mark}-done`))}, { mode: "no-cors" }));`;
  await ok(conv, "execute_script", { target: "page", world: "MAIN", code: startWorker(kind, code) });
  await held(mark, 1);
  return { conv, mark };
}

/** Page code that starts a worker of a kind running `code`. */
function startWorker(kind: string, code: string): string {
  if (kind === "ServiceWorker")
    return `navigator.serviceWorker.register(${JSON.stringify(`/guard/script?code=${encodeURIComponent(code)}`)}); 1`;
  return `window.__worker = new ${kind}(URL.createObjectURL(new Blob([${JSON.stringify(code)}]))); 1`;
}

describe("the request guard across a fleet restart", () => {
  it(
    "re-guards a dedicated worker started before the restart: its request after the wake is refused",
    async () => {
      const { mark } = await workerWaiting("Worker");
      await restartFleet();
      await fetch(page(`/guard/release?id=${mark}`));
      await eventually(async () => (await hits(`${mark}-done`)).length > 0, 20_000);
      expect(await hits(`${mark}-after`)).toEqual([]);
    },
    T,
  );

  it.each(["SharedWorker", "ServiceWorker"])(
    "ends a %s started before the restart (its loaders cannot be re-armed): nothing it asked for goes out",
    async (kind) => {
      const { mark } = await workerWaiting(kind);
      await restartFleet();
      // The worker's held request was given up by the browser: the worker is gone.
      await held(mark, 1, 1);
      await fetch(page(`/guard/release?id=${mark}`));
      expect(await hits(`${mark}-after`)).toEqual([]);
      expect(await hits(`${mark}-done`)).toEqual([]);
    },
    T,
  );
});
