import { describe, expect, it } from "vitest";
import { clearableResults } from "../../../../durable-objects/engine/loop/context-clearing";
import type { StoredMessage } from "../../../../durable-objects/engine/store/message-store";

const PAGE = "words of the page ".repeat(200); // a bulky result (over 2,000 characters)

/** A conversation built step by step: each step is a model call and its result. */
function conversation() {
  const stored: StoredMessage[] = [];
  const add = (message: StoredMessage["message"]) => {
    stored.push({ id: stored.length + 1, run_id: "run", message, at: 0 });
    return stored.length;
  };
  add({ role: "user", content: "go" });
  const step = (name: string, args: Record<string, unknown>, result: Record<string, unknown>) => {
    const id = `call_${stored.length}`;
    add({
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    });
    return add({ role: "tool", tool_call_id: id, content: JSON.stringify(result) });
  };
  const next = () => add({ role: "assistant", content: "thinking" });
  const clearable = (keep: number) => clearableResults(stored, new Map(), keep).map((m) => m.id);
  return { step, next, clearable };
}

const read = (tab: number, url: string) => ({ tab_id: tab, url, title: "T", content: PAGE });

describe("a clearing step with results of tabs", () => {
  it("keeps the newest read of a tab while the model works on that page (typing, clicking in place)", () => {
    const c = conversation();
    c.step("open_tab", { url: "https://a.test/form" }, { id: 1, url: "https://a.test/form" });
    const form = c.step("get_tab_content", { tab_id: 1 }, read(1, "https://a.test/form"));
    c.step(
      "type_text",
      { tab_id: 1, selector: "#name", text: "x" },
      { tab_id: 1, url: "https://a.test/form" },
    );
    c.step("click", { selector: "#more" }, { tab_id: 1, url: "https://a.test/form#more" });
    c.next();
    expect(c.clearable(1)).not.toContain(form);
    expect(c.clearable(0)).toContain(form);
  });

  it("does not keep a read of a tab that has since gone to another page or been closed", () => {
    const c = conversation();
    c.step("open_tab", { url: "https://a.test/1" }, { id: 1, url: "https://a.test/1" });
    const first = c.step("get_tab_content", { tab_id: 1 }, read(1, "https://a.test/1"));
    c.step("open_tab", { url: "https://a.test/2", tab_id: 1 }, { id: 1, url: "https://a.test/2" });
    c.next();
    expect(c.clearable(1)).toEqual([first]);

    const d = conversation();
    d.step("open_tab", { url: "https://a.test/1" }, { id: 2, url: "https://a.test/1" });
    const closed = d.step("get_tab_content", { tab_id: 2 }, read(2, "https://a.test/1"));
    d.step("close_tab", { tab_id: 2 }, { id: 2, url: "https://a.test/1" });
    d.next();
    expect(d.clearable(1)).toEqual([closed]);
  });

  it("keeps the newest read when another tab or a tool that is not about tabs moves on", () => {
    const c = conversation();
    const one = c.step("get_tab_content", { tab_id: 1 }, read(1, "https://a.test/1"));
    c.step("open_tab", { url: "https://a.test/2" }, { id: 2, url: "https://a.test/2" });
    c.step("todo_write", {}, { id: 1, url: "https://elsewhere.test/" });
    c.next();
    expect(c.clearable(1)).not.toContain(one);
  });

  it("keeps a sub-agent's report given a tab (it is not a snapshot of the tab) when the tab closes", () => {
    const c = conversation();
    const report = c.step("agent", { prompt: "fill the form", tab_id: 3 }, { result: PAGE });
    c.step("close_tab", { tab_id: 3 }, { id: 3, url: "https://a.test/form" });
    c.next();
    expect(c.clearable(1)).not.toContain(report);
  });
});
