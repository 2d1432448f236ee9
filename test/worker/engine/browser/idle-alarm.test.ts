import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";
import { conversationObject, createConversation, eventually } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, liveTabs, ok, page, sessionIdOf } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The default idle limit (BROWSER_IDLE_MS is not set in the test bindings). */
const IDLE_MS = 600_000;

const alarmOf = (conv: string) =>
  runInDurableObject(conversationObject(conv), (_obj, state) => state.storage.getAlarm());
/** Moves the browser's last use back in time, as if it had sat idle that long. */
const idleFor = (conv: string, ms: number) =>
  runInDurableObject(conversationObject(conv), (_obj, state) => {
    state.storage.sql.exec(
      "UPDATE browser_meta SET value = ? WHERE key = 'last_used'",
      JSON.stringify(Date.now() - ms),
    );
  });

describe("the idle browser", () => {
  it(
    "is closed by the conversation's alarm once idle past the limit, and rebuilt with its tabs on next use",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/hello") });
      await ok(conv, "open_tab", { url: page("/browser/form") });
      const sessionId = (await sessionIdOf(conv))!;
      const alarm = await alarmOf(conv);
      expect(alarm).not.toBeNull();
      expect(alarm! - Date.now()).toBeGreaterThan(IDLE_MS - 60_000);
      expect(alarm! - Date.now()).toBeLessThanOrEqual(IDLE_MS);

      // An alarm that fires before the limit (e.g. a run's watchdog) leaves the browser open.
      expect(await runDurableObjectAlarm(conversationObject(conv))).toBe(true);
      expect((await liveTabs(conv)).browser).toEqual({ connected: true, launches: 1, live_viewers: 0 });
      expect(await alarmOf(conv)).not.toBeNull();

      await idleFor(conv, IDLE_MS + 1_000);
      expect(await runDurableObjectAlarm(conversationObject(conv))).toBe(true);
      const closed = await liveTabs(conv);
      expect(closed.browser).toEqual({ connected: false, launches: 1, live_viewers: 0 });
      expect(closed.data.map((t) => t.title)).toEqual(["Hello", "Sign in"]);
      await eventually(
        async () => !(await puppeteer.sessions(env.BROWSER)).some((s) => s.sessionId === sessionId),
      );
      expect(await alarmOf(conv)).toBeNull();

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
