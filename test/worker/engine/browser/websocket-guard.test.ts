import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, eventually, newWorkspaceKey, uniqueKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, ok, page, sessionIdOf } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The page server's WebSocket endpoint for a marker, at a host. */
const wsUrl = (id: string, host = "127.0.0.1") =>
  `${page("/ws").replace(/^http/, "ws").replace("127.0.0.1", host)}?id=${encodeURIComponent(id)}`;

/** The hosts of the WebSocket handshakes the page server received for a marker. */
async function handshakes(id: string): Promise<string[]> {
  const res = await fetch(page(`/ws/seen?id=${encodeURIComponent(id)}`));
  return ((await res.json()) as { hosts: string[] }).hosts;
}

/**
 * A page script that opens WebSockets from the page, from a new iframe's window and from a worker
 * (each to its URL), and records how each ended in `window.__ws` (run from a timer: the tool
 * returns at once however slow the machine is).
 */
function openSockets(urls: { page: string; frame: string; worker: string; allowed: string }): string {
  return `window.__ws = {}; setTimeout(() => {
    const settle = (name, socket) => new Promise((resolve) => {
      socket.onmessage = (e) => resolve("message: " + e.data);
      socket.onerror = () => resolve("error");
    }).then((how) => { window.__ws[name] = how; });
    settle("allowed", new WebSocket(${JSON.stringify(urls.allowed)}));
    settle("page", new WebSocket(${JSON.stringify(urls.page)}));
    const frame = document.createElement("iframe");
    document.body.append(frame);
    settle("frame", new frame.contentWindow.WebSocket(${JSON.stringify(urls.frame)}));
    const worker = new Worker(URL.createObjectURL(new Blob([
      "const s = new WebSocket(" + JSON.stringify(${JSON.stringify(urls.worker)}) + ");" +
      "s.onmessage = (e) => postMessage('message: ' + e.data); s.onerror = () => postMessage('error');",
    ])));
    worker.onmessage = (e) => { window.__ws.worker = e.data; };
  }, 0); "opened";`;
}

/** The fleet's browser of a conversation (its options and its session's pages). */
interface FleetBrowser {
  deps: { options: { policy: { allowPrivateNetwork: boolean } } };
  session: { pages: Map<number, { evaluate(code: string): Promise<unknown> }> };
}

function fleetBrowser<T>(
  conv: string,
  workspaceId: string,
  use: (b: FleetBrowser) => Promise<T> | T,
): Promise<T> {
  return runInDurableObject(fleetObject(workspaceId), async (obj) => {
    const fleet = (obj as unknown as { fleet: { browsers: Map<string, FleetBrowser> } }).fleet;
    return await use(fleet.browsers.get(conv)!);
  }) as Promise<T>;
}

/** Lifts or sets the guard of private addresses for one conversation's browser. */
function setPrivateNetwork(conv: string, workspaceId: string, allow: boolean): Promise<void> {
  return fleetBrowser(conv, workspaceId, (b) => {
    b.deps.options.policy.allowPrivateNetwork = allow;
  });
}

/** Evaluates code in tab 1's page directly (no tool call: the context is not leased again). */
function inTab(conv: string, workspaceId: string, code: string): Promise<unknown> {
  return fleetBrowser(conv, workspaceId, (b) => b.session.pages.get(1)!.evaluate(code));
}

/** How each socket of {@link openSockets} ended, once all four have. */
async function outcomes(call: (code: string) => Promise<unknown>): Promise<Record<string, string>> {
  return eventually(async () => {
    const seen = (await call("window.__ws")) as Record<string, string> | null;
    return seen && Object.keys(seen).length === 4 ? seen : null;
  }, 20_000);
}

describe("WebSockets of a conversation's pages", () => {
  it(
    "reach only allowed_domains: a page's, an iframe's and a worker's socket to another host never reach it; an allowed one works",
    async () => {
      const mark = uniqueKey("ws-domains");
      const conv = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
      await ok(conv, "open_tab", { url: page("/hello") });
      const run = (code: string) =>
        ok(conv, "execute_script", { target: "page", world: "MAIN", code }).then((r) => r.result);
      // The same page server under a host outside the list (localhost).
      const outside = (kind: string) => wsUrl(`${mark}-${kind}`, "localhost");
      expect(
        await run(
          openSockets({
            allowed: wsUrl(`${mark}-allowed`),
            page: outside("page"),
            frame: outside("frame"),
            worker: outside("worker"),
          }),
        ),
      ).toBe("opened");
      expect(await outcomes(run)).toEqual({
        allowed: `message: hello ${mark}-allowed`,
        page: "error",
        frame: "error",
        worker: "error",
      });
      expect(await handshakes(`${mark}-allowed`)).toEqual([new URL(page("/")).host]);
      for (const kind of ["page", "frame", "worker"])
        expect({ kind, seen: await handshakes(`${mark}-${kind}`) }).toEqual({ kind, seen: [] });

      // A conversation without the list, on the same browser session, is not held to it.
      const free = await createConversation("echo");
      await ok(free, "open_tab", { url: page("/hello") });
      expect(await sessionIdOf(free)).toBe(await sessionIdOf(conv));
      const freeRun = (code: string) =>
        ok(free, "execute_script", { target: "page", world: "MAIN", code }).then((r) => r.result);
      await freeRun(
        openSockets({
          allowed: wsUrl(`${mark}-free-allowed`),
          page: wsUrl(`${mark}-free-page`, "localhost"),
          frame: wsUrl(`${mark}-free-frame`, "localhost"),
          worker: wsUrl(`${mark}-free-worker`, "localhost"),
        }),
      );
      const free4 = await outcomes(freeRun);
      for (const kind of ["allowed", "page", "frame", "worker"])
        expect(free4[kind]).toBe(`message: hello ${mark}-free-${kind}`);
    },
    T,
  );

  it(
    "never reach a private address once private addresses are refused: the context made before is replaced under the new rules",
    async () => {
      const ws = await newWorkspaceKey(uniqueKey("ws-private"));
      const call = (conv: string, name: string, args: Record<string, unknown> = {}) =>
        api(`/v1/conversations/${conv}/tools/${name}`, {
          method: "POST",
          json: { arguments: args },
          token: ws.key,
        });
      const conv = await createConversation("echo", {}, ws.key);
      expect((await call(conv, "open_tab", { url: page("/hello") })).status).toBe(200);
      // Private addresses refused from now on (tests allow them; a deployment does not): the next
      // call replaces the context, made without limits, by one under the new rules.
      await setPrivateNetwork(conv, ws.id, false);
      expect((await call(conv, "list_tabs")).status).toBe(200);
      // The test's pages live at a private address: let the guard pass them again (the context
      // keeps the rules it was made under) and drive the tab's page directly, with no tool call.
      await setPrivateNetwork(conv, ws.id, true);
      const mark = uniqueKey("ws-private");
      const at = (kind: string, host = "127.0.0.1") => wsUrl(`${mark}-${kind}`, host);
      const run = (code: string) => inTab(conv, ws.id, code);
      await run(`location.href = ${JSON.stringify(page("/hello"))}; "going"`).catch(() => null);
      await eventually(async () => (await run("location.href").catch(() => null)) === page("/hello"), 20_000);
      expect(
        await run(
          openSockets({
            allowed: at("localhost", "localhost"),
            page: at("page"),
            frame: at("frame"),
            worker: at("worker"),
          }),
        ),
      ).toBe("opened");
      expect(await outcomes(run)).toEqual({
        allowed: "error",
        page: "error",
        frame: "error",
        worker: "error",
      });
      for (const kind of ["localhost", "page", "frame", "worker"])
        expect({ kind, seen: await handshakes(`${mark}-${kind}`) }).toEqual({ kind, seen: [] });
    },
    T,
  );
});
