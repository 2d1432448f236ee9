import { env, runInDurableObject } from "cloudflare:test";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";
import { api, conversationObject, createConversation } from "../../helpers";
import {
  BROWSER_TEST_TIMEOUT_MS,
  contextsOf,
  liveTabs,
  ok,
  page,
  sessionIdOf,
  setFleetMeta,
} from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

/** Restarts a conversation's Durable Object, as an eviction would. */
async function restartObject(conv: string): Promise<void> {
  await runInDurableObject(conversationObject(conv), (_obj, state) => {
    state.abort("test restart");
  }).catch(() => {});
}

async function activeSessionIds(): Promise<string[]> {
  return (await puppeteer.sessions(env.BROWSER)).map((s) => s.sessionId);
}

describe("the conversation's browser session", () => {
  it(
    "launches once and is reused across calls and by a restarted object",
    async () => {
      const conv = await createConversation("echo");
      expect((await liveTabs(conv)).browser).toEqual({ connected: false, launches: 0, live_viewers: 0 });
      await ok(conv, "open_tab", { url: page("/hello") });
      for (let i = 0; i < 5; i++) {
        await ok(conv, "get_tab_content", { tab_id: 1 });
        await ok(conv, "list_tabs");
      }
      const sessionId = await sessionIdOf(conv);
      expect(sessionId).toBeTruthy();
      expect((await liveTabs(conv)).browser).toEqual({ connected: true, launches: 1, live_viewers: 0 });

      await restartObject(conv);
      const read = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(read.content).toContain("Hello from the page server");
      expect(read.note).toBeUndefined();
      expect(await sessionIdOf(conv)).toBe(sessionId);
      expect((await liveTabs(conv)).browser.launches).toBe(1);

      await restartObject(conv);
      await ok(conv, "close_tab", { tab_id: 1 });
      const outside = await puppeteer.connect(env.BROWSER, sessionId!);
      const urls = (await outside.pages()).map((p) => p.url());
      await outside.disconnect();
      expect(urls).not.toContain(page("/hello"));
    },
    T,
  );

  it(
    "rebuilds a killed session with the same tab ids, cookies and local storage, and tells the model",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/set-state") });
      const state = await ok(conv, "open_tab", { url: page("/browser/show-state") });
      await ok(conv, "open_tab", { url: page("/hello"), window_id: 2 });
      await ok(conv, "activate_tab", { tab_id: 1 });
      const before = await ok(conv, "get_tab_content", { tab_id: state.id });
      expect(before.content).toContain("cookie header: session=abc123");
      expect(before.content).toContain("theme: dark");

      const sessionId = (await sessionIdOf(conv))!;
      const outside = await puppeteer.connect(env.BROWSER, sessionId);
      await outside.close();

      const after = await ok(conv, "get_tab_content", { tab_id: state.id });
      expect(after.note).toMatch(/browser session had ended and was restarted/);
      expect(after.content).toContain("cookie header: session=abc123");
      expect(after.content).toContain("theme: dark");
      const tabs = (await ok(conv, "list_tabs")).tabs;
      expect(
        tabs.map((t: { id: number; window_id: number; active: boolean }) => [t.id, t.window_id, t.active]),
      ).toEqual([
        [1, 1, true],
        [2, 1, false],
        [3, 2, true],
      ]);
      expect(tabs[2].title).toBe("Hello");
      const live = await liveTabs(conv);
      expect(live.browser.launches).toBe(2);
      expect(await sessionIdOf(conv)).not.toBe(sessionId);
      const again = await ok(conv, "list_tabs");
      expect(again.note).toBeUndefined();
    },
    T,
  );

  it(
    "closes an idle browser context and rebuilds it on next use",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/hello") });
      await setFleetMeta(conv, "last_used", 1);
      const read = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(read.content).toContain("Hello from the page server");
      expect(read.note).toMatch(/restarted/);
      expect((await liveTabs(conv)).browser.launches).toBe(2);
    },
    T,
  );

  it(
    "closes the conversation's context when the conversation is deleted",
    async () => {
      const conv = await createConversation("echo");
      const url = page(`/hello?deleted=${conv}`);
      await ok(conv, "open_tab", { url });
      const sessionId = (await sessionIdOf(conv))!;
      expect(await activeSessionIds()).toContain(sessionId);
      expect(await contextsOf(conv)).toBe(1);
      expect((await api(`/v1/conversations/${conv}`, { method: "DELETE" })).status).toBe(200);
      expect(await contextsOf(conv)).toBe(0);
      expect(await sessionIdOf(conv)).toBeNull();
    },
    T,
  );
});
