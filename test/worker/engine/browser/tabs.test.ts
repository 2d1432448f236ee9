import { describe, expect, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { api, createConversation, eventually, readSse } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, liveTabs, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

describe("tab tools", () => {
  it(
    "opens a new tab once more when its page closes while loading, instead of failing the call",
    async () => {
      const conv = await createConversation("echo");
      // The page waits 3 s for an image; its target is closed meanwhile, as on a busy browser.
      const opening = tool(conv, "open_tab", { url: page("/browser/slow") });
      await eventually(
        () =>
          runInDurableObject(fleetObject(), async (fleet) => {
            // biome-ignore lint/suspicious/noExplicitAny: reaches the fleet's live page to close it
            const loading = (fleet as any).fleet.browsers.get(conv)?.session.pages.get(1);
            if (!loading?.url().includes("/browser/slow")) return false;
            await loading.close();
            return true;
          }),
        60_000,
      );
      const opened = await opening;
      expect(opened.status).toBe(200);
      expect(opened.result).toMatchObject({ title: "Slow", active: true });
      // Only the tab that loaded is listed (the one whose page closed is gone).
      const tabs = (await ok(conv, "list_tabs")).tabs as { id: number; title: string }[];
      expect(tabs.map((t) => [t.id, t.title])).toEqual([[opened.result.id, "Slow"]]);
    },
    T,
  );

  it(
    "opens tabs with small stable ids and exactly one active tab per window",
    async () => {
      const conv = await createConversation("echo");
      const first = await ok(conv, "open_tab", { url: page("/hello") });
      expect(first).toMatchObject({ id: 1, window_id: 1, title: "Hello", active: true, loading: false });
      const second = await ok(conv, "open_tab", { url: page("/browser/form") });
      expect(second).toMatchObject({ id: 2, window_id: 1, title: "Sign in", active: true });
      const background = await ok(conv, "open_tab", { url: page("/browser/globals"), active: false });
      expect(background).toMatchObject({ id: 3, active: false });
      const other = await ok(conv, "open_tab", { url: page("/browser/long"), window_id: 2 });
      expect(other).toMatchObject({ id: 4, window_id: 2, active: true });

      const all = (await ok(conv, "list_tabs")).tabs;
      expect(all.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4]);
      expect(all.filter((t: { active: boolean }) => t.active).map((t: { id: number }) => t.id)).toEqual([
        2, 4,
      ]);

      const activated = await ok(conv, "activate_tab", { tab_id: 1 });
      expect(activated).toMatchObject({ id: 1, active: true });
      const window1 = (await ok(conv, "list_tabs", { window_id: 1 })).tabs;
      expect(window1.map((t: { id: number; active: boolean }) => [t.id, t.active])).toEqual([
        [1, true],
        [2, false],
        [3, false],
      ]);

      const closed = await ok(conv, "close_tab", { tab_id: 1 });
      expect(closed).toMatchObject({ id: 1, closed: true });
      const after = (await ok(conv, "list_tabs", { active: true })).tabs;
      expect(after.map((t: { id: number }) => t.id).sort()).toEqual([3, 4]);
      const inactive = (await ok(conv, "list_tabs", { active: false })).tabs;
      expect(inactive.map((t: { id: number }) => t.id)).toEqual([2]);

      const reopened = await ok(conv, "open_tab", { url: page("/hello") });
      expect(reopened.id).toBe(5);
      const missing = await tool(conv, "close_tab", { tab_id: 1 });
      expect(missing.status).toBe(404);
      expect(missing.error?.message).toMatch(/No tab 1/);
    },
    T,
  );

  it(
    "navigates an existing tab and can return before the page has loaded",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/hello") });
      const moved = await ok(conv, "open_tab", { url: page("/browser/form"), tab_id: tab.id });
      expect(moved).toMatchObject({ id: tab.id, title: "Sign in" });
      expect(moved.url).toBe(page("/browser/form"));
      const early = await ok(conv, "open_tab", { url: page("/browser/slow"), wait_until_loaded: false });
      expect(early.loading).toBe(true);
      const loaded = await ok(conv, "wait_for", { tab_id: early.id, selector: "#done" });
      expect(loaded).toMatchObject({ url: page("/browser/slow"), loading: false });
    },
    T,
  );

  it(
    "filters by url and title patterns and reports a bad pattern clearly",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/hello") });
      await ok(conv, "open_tab", { url: page("/browser/form") });
      const byUrl = (await ok(conv, "list_tabs", { url_pattern: "/browser/" })).tabs;
      expect(byUrl.map((t: { title: string }) => t.title)).toEqual(["Sign in"]);
      const byTitle = (await ok(conv, "list_tabs", { title_pattern: "^hel" })).tabs;
      expect(byTitle.map((t: { id: number }) => t.id)).toEqual([1]);
      const bad = await tool(conv, "list_tabs", { url_pattern: "([" });
      expect(bad.status).toBe(422);
      expect(bad.error).toMatchObject({ code: "invalid_pattern" });
      expect(bad.error?.message).toMatch(/url_pattern is not a valid regular expression/);
    },
    T,
  );

  it(
    "lists only tabs playing sound when audible is set",
    async () => {
      const conv = await createConversation("echo");
      const quiet = await ok(conv, "open_tab", { url: page("/hello") });
      const loud = await ok(conv, "open_tab", { url: page("/browser/audio") });
      expect((await ok(conv, "list_tabs", { audible: true })).tabs).toEqual([]);
      await ok(conv, "click", { tab_id: loud.id, selector: "#play" });
      const audible = (await ok(conv, "list_tabs", { audible: true })).tabs;
      expect(audible.map((t: { id: number }) => t.id)).toEqual([loud.id]);
      const silent = (await ok(conv, "list_tabs", { audible: false })).tabs;
      expect(silent.map((t: { id: number }) => t.id)).toEqual([quiet.id]);
    },
    T,
  );

  it(
    "shows tabs in the live view, the conversation's state events and as PNG screenshots",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/hello") });
      const view = await liveTabs(conv);
      expect(view.data).toEqual([{ id: 1, window_id: 1, url: page("/hello"), title: "Hello", active: true }]);
      const shot = await api(`/v1/conversations/${conv}/tabs/1/screenshot`);
      expect(shot.status).toBe(200);
      expect(shot.headers.get("content-type")).toBe("image/png");
      const bytes = new Uint8Array(await shot.arrayBuffer());
      expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
      expect((await api(`/v1/conversations/${conv}/tabs/9/screenshot`)).status).toBe(404);
      expect((await api(`/v1/conversations/nope/tabs`)).status).toBe(404);
      expect((await api(`/v1/conversations/${conv}/tabs`, { token: null })).status).toBe(401);

      const events = await readSse(await api(`/v1/conversations/${conv}/events`), (m) =>
        JSON.stringify(m.data).includes('"/tabs"'),
      );
      const delta = events.find((e) => e.data.type === "STATE_DELTA")!.data as unknown as {
        delta: { path: string; value: { id: number; title: string }[] }[];
      };
      expect(delta.delta[0].path).toBe("/tabs");
      expect(delta.delta[0].value.at(-1)).toMatchObject({ id: 1, title: "Hello" });
    },
    T,
  );
});
