import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Controller,
  ModelRetry,
  normalizeReturn,
  Tools,
} from "../../../../durable-objects/engine/custom-tools/define";
import { ToolRegistry } from "../../../../durable-objects/engine/tools/tool";
import { runTool } from "../../../../durable-objects/engine/tools/tool-runner";

const ctx = { conversationId: "c", workspaceId: "w", runId: "r", toolCallId: "t" };
const limits = { timeoutMs: 1000, maxResultChars: 10_000, retryBudget: 3 };
const args = z.object({ q: z.string() });

async function call(t: Tools, name: string, input: Record<string, unknown>) {
  const out = await runTool(new ToolRegistry(t.list()), name, input, ctx, limits);
  if (out.kind !== "result") throw new Error("unexpected");
  return out;
}

describe("tools.action registration rules", () => {
  it("takes sync and async functions and names them after the function", async () => {
    const t = new Tools();
    t.action("sync", { parameters: args }, function sync_tool({ q }) {
      return `sync ${q}`;
    });
    t.action("async", { parameters: args }, async function async_tool({ q }) {
      return { echoed: q };
    });
    expect((await call(t, "sync_tool", { q: "a" })).content).toBe("sync a");
    expect((await call(t, "async_tool", { q: "b" })).content).toBe('{"echoed":"b"}');
  });

  it("refuses bad names, taken names and injected parameters at registration", () => {
    const t = new Tools();
    expect(() => t.action("x", { name: "has space", parameters: args }, () => "")).toThrow(TypeError);
    expect(() => t.action("x", { name: "finish", parameters: args }, () => "")).toThrow(/taken/);
    expect(() => t.action("x", { name: "web_fetch", parameters: args }, () => "")).toThrow(/taken/);
    expect(() => t.action("x", { name: "a".repeat(65) }, () => "")).toThrow(TypeError);
    expect(() =>
      t.action(
        "x",
        { name: "uses_browser", parameters: z.object({ browser_session: z.string() }) },
        () => "",
      ),
    ).toThrow(/injected/);
    expect(() => t.action("x", {}, () => "")).toThrow(/name/); // anonymous function, no name
  });

  it("refuses options that make no sense here and warns about ignored ones", () => {
    const t = new Tools();
    for (const opt of [
      "is_done",
      "attachments",
      "images",
      "domains",
      "allowed_domains",
      "page_filter",
      "requires_browser",
      "terminates_sequence",
    ]) {
      expect(() => t.action("x", { name: "t", [opt]: true }, () => ""), opt).toThrow(TypeError);
    }
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    t.action("x", { name: "kept", include_in_memory: false }, () => "");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("include_in_memory"));
    warn.mockRestore();
  });

  it("replaces an earlier tool registered under the same name; Controller is an alias", async () => {
    const t = new Controller();
    t.action("one", { name: "dup" }, () => "first");
    t.action("two", { name: "dup" }, () => "second");
    expect(t.list()).toHaveLength(1);
    expect((await call(t, "dup", {})).content).toBe("second");
  });
});

describe("custom tool results and errors", () => {
  it("maps action results, non-serialisable values and thrown errors to what the model reads", async () => {
    expect(normalizeReturn("t", { extracted_content: "done" })).toBe("done");
    expect(() => normalizeReturn("t", { extracted_content: "x", is_done: true })).toThrow(/finish/);
    expect(normalizeReturn("t", new Map([["a", 1]]))).toBe("[object Map]");
    expect(normalizeReturn("t", [1, 2])).toEqual([1, 2]);
    const t = new Tools();
    t.action("e", { name: "errs" }, () => ({ error: "no such order" }));
    t.action("b", { name: "throws" }, () => {
      throw new Error("db down");
    });
    t.action("r", { name: "retry" }, () => {
      throw new ModelRetry("use a SKU like ABC-123");
    });
    t.action("s", { name: "secretive", parameters: args }, () => "ran");
    expect(JSON.parse((await call(t, "errs", {})).content).error).toEqual({
      code: "tool_error",
      message: "no such order",
    });
    expect(JSON.parse((await call(t, "throws", {})).content).error.message).toContain("db down");
    expect(JSON.parse((await call(t, "retry", {})).content).error.code).toBe("retry_requested");
    const secret = JSON.parse(
      (await call(t, "secretive", { q: "login with <secret>password</secret>" })).content,
    );
    expect(secret.error.code).toBe("secret_placeholder");
    expect(secret.error.message).toContain("type_secret");
  });
});
