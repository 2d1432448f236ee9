import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  RetryRequest,
  ToolError,
  ToolRegistry,
} from "../../../../durable-objects/engine/tools/tool";
import {
  applyResultBudget,
  runTool,
  serializeResult,
} from "../../../../durable-objects/engine/tools/tool-runner";

const ctx = { conversationId: "c", workspaceId: "w", runId: "r", toolCallId: "t" };
const limits = { timeoutMs: 200, maxResultChars: 100, retryBudget: 2 };

const registry = new ToolRegistry([
  defineTool({
    name: "lookup",
    description: "Look up a SKU.",
    parameters: z.object({ sku: z.string().describe("The SKU.") }),
    execute: ({ sku }) => {
      if (sku === "guess") throw new RetryRequest("Unknown SKU; SKUs look like ABC-123.");
      if (sku === "missing") throw new ToolError("not_found", "No such SKU.");
      if (sku === "boom") throw new Error("database down");
      if (sku === "slow") return new Promise(() => {});
      if (sku === "big") return "x".repeat(500);
      return { sku, price: 12.5 };
    },
  }),
]);

const parse = (content: string) =>
  JSON.parse(content) as { ok?: boolean; error?: { code: string; message: string } };

describe("runTool", () => {
  it("returns JSON-able results as JSON and strings as they are", async () => {
    const out = await runTool(registry, "lookup", '{"sku":"A-1"}', ctx, limits);
    expect(out).toMatchObject({ kind: "result", isError: false, content: '{"sku":"A-1","price":12.5}' });
    expect(serializeResult("plain")).toBe("plain");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(serializeResult(cyclic)).toBe("[object Object]");
  });

  it("turns every failure into an error result the model can read", async () => {
    const cases: [string, string][] = [
      ['{"sku":', "invalid_arguments"],
      ['{"sku": 5}', "invalid_arguments"],
      ['{"sku":"missing"}', "not_found"],
      ['{"sku":"boom"}', "tool_failed"],
      ['{"sku":"slow"}', "timeout"],
    ];
    for (const [args, code] of cases) {
      const out = await runTool(registry, "lookup", args, ctx, limits);
      expect(out.kind === "result" && out.isError, args).toBe(true);
      if (out.kind === "result") expect(parse(out.content).error!.code, args).toBe(code);
    }
    const unknown = await runTool(registry, "nope", "{}", ctx, limits);
    if (unknown.kind === "result") expect(parse(unknown.content).error!.message).toContain("lookup");
  });

  it("asks the model to retry, within a budget", async () => {
    const retries = {};
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const out = await runTool(registry, "lookup", '{"sku":"guess"}', ctx, limits, retries);
      if (out.kind === "result") codes.push(parse(out.content).error!.code);
    }
    expect(codes).toEqual([
      "retry_requested",
      "retry_requested",
      "retry_budget_exhausted",
      "retry_budget_exhausted",
    ]);
  });

  it("cuts oversized results and says how much is missing", async () => {
    const out = await runTool(registry, "lookup", '{"sku":"big"}', ctx, limits);
    expect(out.kind === "result" && out.content.startsWith("x".repeat(100))).toBe(true);
    expect(applyResultBudget("y".repeat(150), 100)).toContain("showing 100 of 150 characters");
  });

  it("rejects tool names outside [a-zA-Z0-9_-]{1,64}", () => {
    expect(() =>
      defineTool({ name: "bad name", description: "", parameters: z.object({}), execute: () => 1 }),
    ).toThrow(TypeError);
    expect(() =>
      defineTool({ name: "x".repeat(65), description: "", parameters: z.object({}), execute: () => 1 }),
    ).toThrow(TypeError);
  });

  it("offers each tool's parameters as JSON Schema with descriptions", () => {
    const [spec] = registry.specs();
    expect(spec).toMatchObject({
      name: "lookup",
      parameters: { type: "object", properties: { sku: { type: "string", description: "The SKU." } } },
    });
    expect(spec.parameters).not.toHaveProperty("$schema");
  });
});
