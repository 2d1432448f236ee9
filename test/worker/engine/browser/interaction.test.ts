import { describe, expect, it } from "vitest";
import { createConversation } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

describe("page interaction tools", () => {
  it(
    "fills a form with type_text and submits it with click",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/form") });
      await ok(conv, "type_text", { selector: "#user", text: "ada" });
      await ok(conv, "type_text", { selector: "#user", text: "Ada Lovelace", clear: true });
      const typed = await ok(conv, "type_text", { selector: 'textarea[name="note"]', text: "first line" });
      expect(typed).toMatchObject({ tab_id: 1, typed: 10 });
      const read = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(read.content).toContain('[text field: User name = "Ada Lovelace"] {#user}');
      const clicked = await ok(conv, "click", {
        selector: read.content.match(/\[button: Sign in\] \{([^}]+)\}/)[1],
      });
      expect(clicked).toMatchObject({
        navigated: true,
        title: "Signed in",
        url: page("/browser/form-result"),
      });
      const result = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(result.content).toContain("# Welcome Ada Lovelace");
      expect(result.content).toContain("Note: first line");
    },
    T,
  );

  it(
    "clicks by coordinates, presses keys and key combinations",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/keys") });
      const box = (
        await ok(conv, "execute_script", {
          target: "page",
          code: "const r = document.getElementById('field').getBoundingClientRect(); ({ x: r.x + 5, y: r.y + 5 })",
        })
      ).result;
      const clicked = await ok(conv, "click", { x: box.x, y: box.y });
      expect(clicked).toMatchObject({ clicked: { x: box.x, y: box.y }, navigated: false });
      await ok(conv, "press_key", { key: "a" });
      await ok(conv, "press_key", { key: "Control+A" });
      const pressed = await ok(conv, "press_key", { key: "Enter", selector: "#field" });
      expect(pressed).toMatchObject({ key: "Enter", navigated: false });
      const log = await ok(conv, "execute_script", {
        target: "page",
        code: "document.getElementById('log').textContent",
      });
      expect(log.result.trim()).toBe("a Ctrl+Control Ctrl+A Enter");
      const bad = await tool(conv, "press_key", { key: "NoSuchKey" });
      expect(bad).toMatchObject({ status: 422, error: { code: "invalid_key" } });
      const missing = await tool(conv, "click", { selector: "#nope" });
      expect(missing.status).toBe(404);
      const neither = await tool(conv, "click", {});
      expect(neither.status).toBe(400);
    },
    T,
  );

  it(
    "scrolls by an amount and to an element",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/long") });
      const down = await ok(conv, "scroll", { delta_y: 700 });
      expect(down).toMatchObject({ tab_id: 1, scroll_x: 0, scroll_y: 700 });
      const up = await ok(conv, "scroll", { delta_y: -200 });
      expect(up.scroll_y).toBe(500);
      const right = await ok(conv, "scroll", { delta_x: 300, delta_y: 0 });
      expect(right).toMatchObject({ scroll_x: 300, scroll_y: 500 });
      const bottom = await ok(conv, "scroll", { selector: "#bottom" });
      expect(bottom.scroll_y).toBeGreaterThan(4000);
      expect((await tool(conv, "scroll", { selector: "#none" })).status).toBe(404);
    },
    T,
  );

  it(
    "waits for an element or a navigation, and says clearly when it times out",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/delayed") });
      const appeared = await ok(conv, "wait_for", { selector: "#late" });
      expect(appeared).toMatchObject({ waited_for: "#late", title: "Delayed" });
      await ok(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: "setTimeout(() => document.getElementById('late').click(), 1000); true",
      });
      const navigated = await ok(conv, "wait_for", { navigation: true });
      expect(navigated).toMatchObject({ waited_for: "navigation", title: "Hello" });
      const timeout = await tool(conv, "wait_for", { selector: "#never", timeout_ms: 300 });
      expect(timeout).toMatchObject({ status: 422, error: { code: "timeout" } });
      expect(timeout.error?.message).toMatch(/Waited 300 ms for "#never"/);
      expect((await tool(conv, "wait_for", {})).status).toBe(400);
    },
    T,
  );

  it(
    "counts a navigation that finished between two calls as the one waited for, and then waits for the next",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/long") });
      const id = crypto.randomUUID();
      await ok(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: `setTimeout(() => { location.href = "/browser/arrived?id=${id}"; }, 50); true`,
      });
      // The new page has loaded (it said so to the page server) before wait_for is called.
      expect(await (await fetch(page(`/browser/arrival?id=${id}`))).json()).toEqual({ arrived: id });
      const navigated = await ok(conv, "wait_for", { navigation: true, timeout_ms: 5_000 });
      expect(navigated).toMatchObject({ waited_for: "navigation", title: "Arrived" });
      // That navigation was seen: a second wait is for the next one, which never comes.
      const again = await tool(conv, "wait_for", { navigation: true, timeout_ms: 500 });
      expect(again).toMatchObject({ status: 422, error: { code: "timeout" } });
    },
    T,
  );

  it(
    "takes a screenshot and describes it without putting image data in the result",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/long") });
      const shot = await ok(conv, "screenshot", {});
      expect(shot).toMatchObject({
        tab_id: 1,
        format: "png",
        title: "Long",
        saved_to: expect.stringMatching(/^screenshots\/conv_[\w-]+\/tab-1-\d+\.png$/),
      });
      expect(shot.width).toBeGreaterThan(0);
      expect(shot.bytes).toBeGreaterThan(100);
      expect(shot.description).toContain('of "Long"');
      const full = await ok(conv, "screenshot", { full_page: true });
      expect(full.height).toBeGreaterThan(5000);
      const part = await ok(conv, "screenshot", { selector: "h1" });
      expect(part.height).toBeLessThan(100);
      expect(JSON.stringify([shot, full, part])).not.toMatch(/iVBOR|base64/);
      expect((await tool(conv, "screenshot", { tab_id: 42 })).status).toBe(404);
    },
    T,
  );
});
