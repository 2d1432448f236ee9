import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { BrowserFleetObject } from "../../../durable-objects/browser-fleet/browser-fleet-object";
import type { Clock } from "../../../durable-objects/engine/browser/fleet/launch";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, ok, page } from "../engine/browser/browser-helpers";
import { api, createConversation, eventually, newWorkspaceKey } from "../helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

const stats = (workspace = "default") =>
  runInDurableObject(fleetObject(workspace), (obj) => (obj as unknown as BrowserFleetObject).stats());

describe("a restart of the fleet object", () => {
  it(
    "keeps a conversation's tabs: after the restart they are listed and read as before",
    async () => {
      const conv = await createConversation("echo");
      const hello = await ok(conv, "open_tab", { url: page("/hello") });
      const state = await ok(conv, "open_tab", { url: page("/browser/show-state") });
      const before = (await ok(conv, "list_tabs")).tabs;
      expect((await stats()).contexts).toBe(1);

      await abortAllDurableObjects();

      const after = (await ok(conv, "list_tabs")).tabs;
      expect(after.map((t: { id: number; url: string }) => [t.id, t.url])).toEqual(
        before.map((t: { id: number; url: string }) => [t.id, t.url]),
      );
      expect((await ok(conv, "get_tab_content", { tab_id: hello.id })).content).toContain("Hello");
      expect((await ok(conv, "get_tab_content", { tab_id: state.id })).content).toContain("cookie");
      // The rebuilt fleet holds the conversation's context again, on at most the allowed browsers.
      const now = await stats();
      expect(now.contexts).toBe(1);
      expect(now.sessions).toBe(1);
    },
    T,
  );
});

/** A clock that moves only when the test moves it. */
function manualClock(start: number) {
  let now = start;
  const sleepers: { at: number; wake(): void }[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const s of sleepers.filter((x) => x.at <= now)) {
      sleepers.splice(sleepers.indexOf(s), 1);
      s.wake();
    }
  };
  return { clock, advance };
}

describe("the launch pace (BROWSER_LAUNCH_INTERVAL_MS)", () => {
  it(
    "launches the next browser only once the interval has passed on the fleet's clock; the call waits meanwhile",
    async () => {
      const ws = await newWorkspaceKey("fleet-pace");
      const time = manualClock(Date.parse("2026-12-06T12:00:00Z"));
      await runInDurableObject(fleetObject(ws.id), (obj) => {
        const fleet = obj as unknown as BrowserFleetObject;
        fleet.clock = time.clock;
        fleet.limits.launchIntervalMs = 20_000;
        fleet.limits.queueTimeoutMs = 600_000;
      });
      const call = async (conv: string) => {
        const res = await api(`/v1/conversations/${conv}/tools/open_tab`, {
          method: "POST",
          json: { arguments: { url: page("/hello") } },
          token: ws.key,
        });
        return { status: res.status, body: (await res.json()) as { result?: { title: string } } };
      };
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => createConversation("echo", {}, ws.key)));
      // Two conversations fit in the first browser (2 contexts per browser in the tests).
      expect((await call(a)).status).toBe(200);
      expect((await call(b)).status).toBe(200);
      expect(await stats(ws.id)).toMatchObject({ sessions: 1, launches: 1 });

      // A third needs a second browser: it waits for the pace, first in the queue.
      const third = call(c);
      await eventually(async () => (await stats(ws.id)).waiting === 1);
      // The clock moves inside the fleet object (what it wakes runs there).
      const advance = (ms: number) => runInDurableObject(fleetObject(ws.id), () => time.advance(ms));
      await advance(19_999);
      expect(await stats(ws.id)).toMatchObject({ waiting: 1, sessions: 1, launches: 1 });

      await advance(1);
      const done = await third;
      expect(done.status).toBe(200);
      expect(done.body.result?.title).toBe("Hello");
      expect(await stats(ws.id)).toMatchObject({ waiting: 0, sessions: 2, launches: 2, queued: 1 });
    },
    T,
  );
});
