import { describe, expect, it } from "vitest";
import { createConversation, modelRequests, script, uniqueKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

describe("get_tab_content", () => {
  it(
    "reads a page built by JavaScript as Markdown with selectors that work in other tools",
    async () => {
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/js-built") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      expect(read).toMatchObject({
        tab_id: tab.id,
        url: page("/browser/js-built"),
        title: "Built by JS (done)",
        truncated: false,
        used_selector: "main",
      });
      expect(read.content).toContain("# Fresh from JavaScript {#headline}");
      expect(read.content).toContain("- Alpha\n\n- Beta\n\n- Gamma");
      expect(read.content).not.toContain("Loading");
      const link = read.content.match(/\[Say hello\]\(([^)]+)\) \{([^}]+)\}/);
      // A same-origin link is written as its path (shorter; the page's URL is in the result).
      expect(link?.[1]).toBe("/hello");
      const button = read.content.match(/\[button: Go\] \{([^}]+)\}/)![1];
      const text = await ok(conv, "execute_script", {
        target: "page",
        code: `document.querySelector(${JSON.stringify(button)}).textContent`,
      });
      expect(text.result).toBe("Go");
      await ok(conv, "click", { selector: link![2] });
      expect((await ok(conv, "list_tabs")).tabs[0].title).toBe("Hello");
    },
    T,
  );

  it(
    "annotates form fields, uses body without a main element, and respects selector and max_length",
    async () => {
      const conv = await createConversation("echo");
      const form = await ok(conv, "open_tab", { url: page("/browser/form") });
      const whole = await ok(conv, "get_tab_content", { tab_id: form.id });
      expect(whole.used_selector).toBe("main");
      expect(whole.content).not.toContain("Home");
      expect(whole.content).toContain("[text field: User name] {#user}");
      expect(whole.content).toContain('[password field: Password] {input[name="pass"]}');
      expect(whole.content).toContain("[select: plan; options: free | pro (selected)]");
      expect(whole.content).toContain("[checkbox (checked): remember]");
      expect(whole.content).toMatch(/\[button: Sign in\] \{[^}]+\}/);

      const part = await ok(conv, "get_tab_content", { tab_id: form.id, selector: "label" });
      expect(part).toMatchObject({ used_selector: "label", content: "User name" });
      const short = await ok(conv, "get_tab_content", { tab_id: form.id, max_length: 10 });
      expect(short).toMatchObject({ truncated: true });
      expect(short.content).toHaveLength(10);

      const plain = await ok(conv, "open_tab", { url: page("/browser/globals") });
      const body = await ok(conv, "get_tab_content", { tab_id: plain.id });
      expect(body).toMatchObject({ used_selector: "body", content: "Shared DOM" });

      const none = await tool(conv, "get_tab_content", { tab_id: form.id, selector: "#nothing" });
      expect(none).toMatchObject({ status: 404, error: { code: "not_found" } });
      const bad = await tool(conv, "get_tab_content", { tab_id: form.id, selector: "a[[" });
      expect(bad).toMatchObject({ status: 422, error: { code: "invalid_selector" } });
      const noTab = await tool(conv, "get_tab_content", { tab_id: 99 });
      expect(noTab.status).toBe(404);
    },
    T,
  );

  it(
    "summarises the page with the conversation's model when a prompt is given",
    async () => {
      const key = uniqueKey("summary");
      await script(key, [{ text: "A sign-in form with a user name and a password." }]);
      const conv = await createConversation(key);
      const tab = await ok(conv, "open_tab", { url: page("/browser/form") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id, prompt: "What is this page for?" });
      expect(read.content).toBe("A sign-in form with a user name and a password.");
      const [request] = await modelRequests(key);
      const user = request.messages.find((m) => m.role === "user")!.content as string;
      expect(user).toContain("What is this page for?");
      expect(user).toContain("[text field: User name] {#user}");
    },
    T,
  );
});
