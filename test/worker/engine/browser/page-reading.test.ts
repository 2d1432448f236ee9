import { describe, expect, it } from "vitest";
import { createConversation } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The selector annotations of a read, in order. */
const annotations = (content: string) => [...content.matchAll(/ \{([^{}\n]+)\}/g)].map((m) => m[1]);
/** How many elements each selector matches in the tab (-1: not a valid selector). */
const matchCounts = async (conv: string, tabId: number, selectors: string[]) =>
  (
    await ok(conv, "execute_script", {
      target: "page",
      tab_id: tabId,
      code: `${JSON.stringify(selectors)}.map((s) => { try { return document.querySelectorAll(s).length; } catch { return -1; } })`,
    })
  ).result as number[];

describe("get_tab_content reads the main content first", () => {
  it(
    "returns a story beside long menus first and whole, then an outline whose selectors read each part",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/story") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      expect(read.used_selector).toBe("div.story");
      expect(read.truncated).toBe(false);
      const [story, outline] = read.content.split("\n\n---\n\n");
      expect(story).toMatch(/^# Storm floods the harbour town \{h1\}\n\nBy A\. Reporter\n\nParagraph 1: /);
      for (let n = 1; n <= 14; n++) expect(story).toContain(`Paragraph ${n}: the harbour town`);
      expect(story).not.toMatch(/Section \d|Popular \d|Footer \d|We use cookies/);
      const lines = outline.split("\n");
      expect(lines[0]).toBe("Elsewhere (pass a selector to read one):");
      expect(lines.slice(1)).toEqual([
        "- header {header}: 61 links (Front page, Section 1, …)",
        '- sidebar {aside}: "Most read"; 40 links',
        "- footer {footer}: 12 links (Footer 1, Footer 2, …)",
        '- dialog {div[aria-label="Cookies"]}: 1 button; "We use cookies. Accept all"',
      ]);
      const parts = lines.slice(1).map((l: string) => /\{([^}]+)\}/.exec(l)![1]);
      const [header, aside, footer, dialog] = await Promise.all(
        parts.map((selector: string) => ok(conv, "get_tab_content", { tab_id: tab.id, selector })),
      );
      expect(header.content).toContain("[Section 60](");
      expect(aside.content).toContain("[Popular 40](");
      expect(footer.content).toContain("[Footer 12](");
      expect(dialog.content).toMatch(/^We use cookies\.\n\n\[button: Accept all\] \{[^}]+\}$/);
    },
    T,
  );

  it(
    "reads a page without a main region whole, with no outline",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/dashboard") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      expect(read.used_selector).toBe("body");
      expect(read.content).toContain("[Menu 8](");
      expect(read.content).toContain('[text field: Search orders] {input[name="q"]}');
      expect(read.content).toContain("| A-2 | 40.50 |");
      expect(read.content).not.toContain("Elsewhere (");
    },
    T,
  );

  it(
    "annotates only what can be acted on, each selector matching one element that click and type_text accept",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/story") });
      const whole = await ok(conv, "get_tab_content", { tab_id: tab.id, selector: "body" });
      const selectors = annotations(whole.content);
      expect(selectors.length).toBe(1 + 1 + 60 + 1 + 1 + 1 + 1 + 40 + 12 + 1);
      expect(await matchCounts(conv, tab.id, selectors)).toEqual(selectors.map(() => 1));
      expect(whole.content).not.toMatch(/Paragraph 1[^\n]*\{/);
      expect(Math.max(...selectors.map((s) => s.length))).toBeLessThanOrEqual(40);

      const field = /\[text field: Your comment\] \{([^}]+)\}/.exec(whole.content)![1];
      await ok(conv, "type_text", { selector: field, text: "Stay safe" });
      const typed = await ok(conv, "execute_script", {
        target: "page",
        code: `document.querySelector(${JSON.stringify(field)}).value`,
      });
      expect(typed.result).toBe("Stay safe");
      const link = /\[the council's statement\]\(\/hello\?story=more\) \{([^}]+)\}/.exec(whole.content)![1];
      expect((await ok(conv, "click", { selector: link })).navigated).toBe(true);
      expect((await ok(conv, "list_tabs")).tabs[0].url).toBe(page("/hello?story=more"));
    },
    T,
  );

  it(
    "writes annotations of every kind that click, type_text, wait_for, scroll and execute_script take as is",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/controls") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      const find = (label: RegExp) => {
        const m = new RegExp(`${label.source}[^{\\n]*\\{([^}]+)\\}`).exec(read.content);
        if (!m) throw new Error(`${label} not in ${read.content}`);
        return m[1];
      };
      const save = find(/\[button: Save\]/);
      const email = find(/\[text field: Email\]/);
      const close = find(/\[button: x\]/);
      const notes = find(/\[textarea: Notes\]/);
      const [twin1, twin2] = [...read.content.matchAll(/\[button: Twin\] \{([^}]+)\}/g)].map((m) => m[1]);
      const far = find(/\[text field: Far field\]/);
      const next = find(/\[Next page\]\(\/hello\?from=controls\)/);
      expect([save, email, close, notes]).toEqual([
        "#save",
        'input[name="email"]',
        'button[aria-label="Close panel"]',
        "textarea",
      ]);
      expect([twin1, twin2, far]).toEqual([
        expect.stringMatching(/^\[data-c="\d+"\]$/),
        expect.stringMatching(/^\[data-c="\d+"\]$/),
        expect.stringMatching(/^\[data-c="\d+"\]$/),
      ]);
      expect(next).toBe('a[href="/hello?from=controls"]');
      const all = [save, email, close, notes, twin1, twin2, far, next];
      const tags = await ok(conv, "execute_script", {
        target: "page",
        tab_id: tab.id,
        code: `${JSON.stringify(all)}.map((s) => document.querySelector(s).tagName)`,
      });
      expect(tags.result).toEqual([
        "BUTTON",
        "INPUT",
        "BUTTON",
        "TEXTAREA",
        "BUTTON",
        "BUTTON",
        "INPUT",
        "A",
      ]);
      for (const selector of all) {
        await ok(conv, "scroll", { tab_id: tab.id, selector });
        await ok(conv, "wait_for", { tab_id: tab.id, selector, timeout_ms: 2000 });
      }
      for (const [selector, title] of [
        [save, "save"],
        [close, "close"],
        [twin2, "twin 2"],
        [twin1, "twin 1"],
      ]) {
        await ok(conv, "click", { tab_id: tab.id, selector });
        expect((await ok(conv, "list_tabs")).tabs[0].title).toBe(title);
      }
      for (const [selector, text] of [
        [email, "a@b.test"],
        [notes, "a note"],
        [far, "far away"],
      ])
        await ok(conv, "type_text", { tab_id: tab.id, selector, text });
      const values = await ok(conv, "execute_script", {
        target: "page",
        tab_id: tab.id,
        code: `${JSON.stringify([email, notes, far])}.map((s) => document.querySelector(s).value)`,
      });
      expect(values.result).toEqual(["a@b.test", "a note", "far away"]);
      expect((await ok(conv, "click", { tab_id: tab.id, selector: next })).navigated).toBe(true);
      expect((await ok(conv, "list_tabs")).tabs[0].url).toBe(page("/hello?from=controls"));
    },
    T,
  );

  it(
    "keeps a stamped selector across a scroll and gives fresh ones after a navigation",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/stamps") });
      const loadMore = (content: string) => /\[button: Load more\] \{([^}]+)\}/.exec(content)![1];
      const first = await ok(conv, "get_tab_content", { tab_id: tab.id });
      const stamp = loadMore(first.content);
      expect(stamp).toMatch(/^\[data-c="\d+"\]$/);
      await ok(conv, "scroll", { delta_y: 2000 });
      const again = await ok(conv, "get_tab_content", { tab_id: tab.id });
      expect(again.content).toBe(first.content);
      await ok(conv, "scroll", { selector: stamp });
      await ok(conv, "wait_for", { selector: stamp, timeout_ms: 2000 });
      await ok(conv, "click", { selector: stamp });
      expect((await ok(conv, "list_tabs")).tabs[0].title).toBe("Load more pressed");

      await ok(conv, "open_tab", { tab_id: tab.id, url: page("/browser/stamps?v=2") });
      expect(await matchCounts(conv, tab.id, [stamp])).toEqual([0]);
      const fresh = await ok(conv, "get_tab_content", { tab_id: tab.id });
      await ok(conv, "click", { selector: loadMore(fresh.content) });
      expect((await ok(conv, "list_tabs")).tabs[0].title).toBe("Load more pressed");
      const field = /\[text field: \] \{([^}]+)\}/.exec(fresh.content)![1];
      await ok(conv, "type_text", { selector: field, text: "hi" });
      const value = await ok(conv, "execute_script", {
        target: "page",
        code: `[...document.querySelectorAll("input")].map((i) => i.value)`,
      });
      expect(value.result).toEqual(["hi", ""]);
    },
    T,
  );

  it(
    "keeps the outline after a main part cut to max_length, and reads a selector's part as before",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/story") });
      const cut = await ok(conv, "get_tab_content", { tab_id: tab.id, max_length: 2000 });
      expect(cut.truncated).toBe(true);
      expect(cut.content.length).toBeLessThanOrEqual(2000);
      expect(cut.content).toMatch(/^# Storm floods the harbour town/);
      expect(cut.content).toContain("\n\n[…]\n\n---\n\nElsewhere (");
      expect(cut.content).toContain("- footer {footer}");
      const part = await ok(conv, "get_tab_content", { tab_id: tab.id, selector: "aside h2" });
      expect(part).toMatchObject({
        used_selector: "aside h2",
        content: "## Most read {h2}",
        truncated: false,
      });
    },
    T,
  );
});
