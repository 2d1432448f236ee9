import { describe, expect, it } from "vitest";
import { createConversation } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

describe("execute_script in a page", () => {
  it(
    "runs ISOLATED by default without the page's globals, and MAIN with them; both share the DOM",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/globals") });
      const isolated = await ok(conv, "execute_script", {
        target: "page",
        code: "[typeof window.pageSecret, typeof pageAdd, document.getElementById('box').textContent]",
      });
      expect(isolated).toMatchObject({ target: "page", tab_id: tab.id, world: "ISOLATED" });
      expect(isolated.result).toEqual(["undefined", "undefined", "Shared DOM"]);
      const main = await ok(conv, "execute_script", {
        target: "page",
        tab_id: tab.id,
        world: "MAIN",
        code: "[window.pageSecret, pageAdd(2, 3), document.getElementById('box').textContent]",
      });
      expect(main.result).toEqual([42, 5, "Shared DOM"]);
      await ok(conv, "execute_script", {
        target: "page",
        code: "window.isolatedOnly = 1; document.title = 'x'",
      });
      const fromMain = await ok(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: "[typeof window.isolatedOnly, document.title]",
      });
      expect(fromMain.result).toEqual(["undefined", "x"]);
      const kept = await ok(conv, "execute_script", { target: "page", code: "window.isolatedOnly + 1" });
      expect(kept.result).toBe(2);
      await ok(conv, "execute_script", {
        target: "page",
        code: "document.querySelector = () => null; CSS.escape = null",
      });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      expect(read.content).toBe("Shared DOM");
    },
    T,
  );

  it(
    "returns JSON for statements, return, await, DOM nodes and undefined",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/globals") });
      const run = async (code: string) => (await ok(conv, "execute_script", { target: "page", code })).result;
      expect(await run("const a = 2; a * 21")).toBe(42);
      expect(await run("const n = document.querySelectorAll('div').length; return { n };")).toEqual({ n: 1 });
      expect(await run("await new Promise((r) => setTimeout(() => r('later'), 20))")).toBe("later");
      expect(await run("document.getElementById('box')")).toBe('<div id="box">Shared DOM</div>');
      expect(await run("undefined")).toBeNull();
      expect(await run("({ when: new Date(0), list: new Set([1, 2]) })")).toEqual({
        when: "1970-01-01T00:00:00.000Z",
        list: [1, 2],
      });
    },
    T,
  );

  it(
    "reports exceptions with their message and stops a script that hangs",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/globals") });
      const thrown = await tool(conv, "execute_script", {
        target: "page",
        code: "throw new Error('boom here')",
      });
      expect(thrown.status).toBe(422);
      expect(thrown.error).toMatchObject({ code: "script_error" });
      expect(thrown.error?.message).toContain("boom here");
      const syntax = await tool(conv, "execute_script", { target: "page", code: "let = ;" });
      expect(syntax.error?.message).toMatch(/SyntaxError/);
      const loop = await tool(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: "while (true) {}",
      });
      expect(loop).toMatchObject({ status: 422, error: { code: "script_timeout" } });
      const never = await tool(conv, "execute_script", {
        target: "page",
        code: "await new Promise(() => {})",
      });
      expect(never).toMatchObject({ status: 422, error: { code: "script_timeout" } });
      expect(never.error?.message).toMatch(/did not finish within 5 s/);
      const after = await ok(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: "pageAdd(1, 1)",
      });
      expect(after.result).toBe(2);
      const noTab = await tool(conv, "execute_script", { target: "page", tab_id: 7, code: "1" });
      expect(noTab.status).toBe(404);
    },
    T,
  );
});

describe("execute_script in the sandbox", () => {
  it(
    "computes without DOM, network or I/O and returns JSON",
    async () => {
      const conv = await createConversation("echo");
      const sum = await ok(conv, "execute_script", {
        target: "sandbox",
        code: "const xs = [3, 1, 2].sort(); return { sorted: xs, total: xs.reduce((a, b) => a + b, 0) };",
      });
      expect(sum).toEqual({ target: "sandbox", result: { sorted: [1, 2, 3], total: 6 } });
      const env = await ok(conv, "execute_script", {
        target: "sandbox",
        code: "[typeof document, typeof fetch, typeof require, typeof setTimeout]",
      });
      expect(env.result).toEqual(["undefined", "undefined", "undefined", "undefined"]);
      const thrown = await tool(conv, "execute_script", { target: "sandbox", code: "null.x" });
      expect(thrown.error).toMatchObject({ code: "script_error" });
      expect(thrown.error?.message).toMatch(/TypeError/);
      const tabs = (await ok(conv, "list_tabs")).tabs;
      expect(tabs).toEqual([]);
    },
    T,
  );

  it(
    "stops an endless loop and a script that allocates past the memory limit",
    async () => {
      const conv = await createConversation("echo");
      const loop = await tool(conv, "execute_script", { target: "sandbox", code: "for (;;) {}" });
      expect(loop).toMatchObject({ status: 422, error: { code: "script_timeout" } });
      const memory = await tool(conv, "execute_script", {
        target: "sandbox",
        code: "const big = new ArrayBuffer(256 * 1024 * 1024); big.byteLength",
      });
      expect(memory).toMatchObject({ status: 422, error: { code: "script_memory" } });
      const fine = await ok(conv, "execute_script", { target: "sandbox", code: "'still ' + 'working'" });
      expect(fine.result).toBe("still working");
    },
    T,
  );
});
