import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createConversation } from "../../helpers";
import {
  BROWSER_TEST_TIMEOUT_MS,
  contextsOf,
  fleetObject,
  liveTabs,
  ok,
  page,
  sessionIdOf,
  setFleetMeta,
} from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The default idle limit (BROWSER_IDLE_MS is not set in the test bindings). */
const IDLE_MS = 60_000;

const alarmOf = () => runInDurableObject(fleetObject(), (_obj, state) => state.storage.getAlarm());

describe("the idle browser context", () => {
  it(
    "is closed by the fleet's alarm once idle past the limit, and rebuilt with its tabs on next use",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/hello") });
      await ok(conv, "open_tab", { url: page("/browser/form") });
      expect(await sessionIdOf(conv)).toBeTruthy();
      const alarm = await alarmOf();
      expect(alarm).not.toBeNull();
      expect(alarm! - Date.now()).toBeGreaterThan(IDLE_MS - 30_000);
      expect(alarm! - Date.now()).toBeLessThanOrEqual(IDLE_MS);

      // An alarm that fires before the limit leaves the context open and re-arms.
      expect(await runDurableObjectAlarm(fleetObject())).toBe(true);
      expect((await liveTabs(conv)).browser).toEqual({ connected: true, launches: 1, live_viewers: 0 });
      expect(await contextsOf(conv)).toBe(1);
      expect(await alarmOf()).not.toBeNull();

      await setFleetMeta(conv, "last_used", Date.now() - IDLE_MS - 1_000);
      expect(await runDurableObjectAlarm(fleetObject())).toBe(true);
      const closed = await liveTabs(conv);
      expect(closed.browser).toEqual({ connected: false, launches: 1, live_viewers: 0 });
      expect(closed.data.map((t) => t.title)).toEqual(["Hello", "Sign in"]);
      expect(await contextsOf(conv)).toBe(0);

      const read = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(read.content).toContain("Hello from the page server");
      expect(read.note).toMatch(/restarted/);
      expect((await ok(conv, "list_tabs")).tabs.map((t: { title: string }) => t.title)).toEqual([
        "Hello",
        "Sign in",
      ]);
      expect((await liveTabs(conv)).browser).toEqual({ connected: true, launches: 2, live_viewers: 0 });
    },
    T,
  );
});
