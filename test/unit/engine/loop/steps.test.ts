import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScope, startRun } from "../../../../durable-objects/engine/loop/agent-loop";
import { cutPoint } from "../../../../durable-objects/engine/loop/context-window";
import {
  budgetStop,
  OUTPUT_REMINDERS,
  runFinalAnswer,
} from "../../../../durable-objects/engine/loop/finishing";
import { modelStep } from "../../../../durable-objects/engine/loop/model-step";
import { toolStep } from "../../../../durable-objects/engine/loop/tool-step";
import type { StoredMessage } from "../../../../durable-objects/engine/store/message-store";
import { type ScriptedModel, startScriptedModel } from "../../../support/scripted-model";
import { eventsOf, harness, script } from "../../support/loop-harness";

let llm: ScriptedModel;
beforeAll(async () => {
  llm = await startScriptedModel();
});
afterAll(async () => {
  await llm.close();
});

/** A harness with one started run. */
function started(key: string, opts: Parameters<typeof harness>[2] = {}) {
  const h = harness(llm.url, key, opts);
  const runId = h.enqueue("go");
  startRun(h.deps, h.runs.get(runId)!);
  return { h, runId };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: "function" as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe("the model turn", () => {
  it("streams the answer as one text message inside a step, then checkpoints it and counts the step", async () => {
    const key = `turn-${crypto.randomUUID()}`;
    await script(llm.url, key, [
      { text: "hello there", chunks: 3, usage: { prompt_tokens: 7, completion_tokens: 3 } },
    ]);
    const { h, runId } = started(key);
    const turn = await modelStep(h.deps, runId, 1, [{ role: "user", content: "go" }]);
    expect(turn.text).toBe("hello there");
    const types = h
      .events()
      .map((e) => e.event.type)
      .filter((t) => t.startsWith("STEP") || t.startsWith("TEXT"));
    // the user's message (START, CONTENT, END), then the step with the assistant's three chunks
    expect(types.slice(3)).toEqual([
      "STEP_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
    ]);
    expect(h.messages.lastAssistant(runId)?.message).toEqual({ role: "assistant", content: "hello there" });
    expect(h.runs.get(runId)).toMatchObject({
      steps: 1,
      usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    });
  });

  it("closes its step and open message when the model call fails", async () => {
    const key = `turn-fail-${crypto.randomUUID()}`;
    await script(llm.url, key, [{ error: { status: 400, message: "bad request" } }]);
    const { h, runId } = started(key);
    await expect(modelStep(h.deps, runId, 1, [{ role: "user", content: "go" }])).rejects.toThrow(
      /bad request/,
    );
    expect(eventsOf(h, "STEP_FINISHED")).toEqual([expect.objectContaining({ stepName: "step_1" })]);
    expect(h.runs.get(runId)?.steps).toBe(0);
  });
});

describe("the tool step", () => {
  it("runs every call still lacking a result, once: a call answered before an interruption is not run again", async () => {
    const { h, runId } = started("unused");
    h.messages.append(runId, {
      role: "assistant",
      content: null,
      tool_calls: [
        call("c1", "sleep_tool", { label: "first" }),
        call("c2", "sleep_tool", { label: "second" }),
      ],
    });
    h.messages.append(runId, { role: "tool", tool_call_id: "c1", content: '{"ran":"first"}' });
    expect(await toolStep(h.deps, runId, {})).toEqual({ kind: "done" });
    expect(h.toolRuns).toEqual(["second"]);
    expect(await toolStep(h.deps, runId, {})).toEqual({ kind: "none" });
    expect(h.toolRuns).toEqual(["second"]);
    expect(eventsOf(h, "TOOL_CALL_RESULT")).toEqual([expect.objectContaining({ toolCallId: "c2" })]);
  });

  it("suspends on ask_user: the question is in the state and the run waits for the user", async () => {
    const { h, runId } = started("unused");
    h.messages.append(runId, {
      role: "assistant",
      content: null,
      tool_calls: [call("q1", "ask_user", { question: "Which?", options: ["a", "b"] })],
    });
    expect(await toolStep(h.deps, runId, {})).toEqual({ kind: "suspended" });
    expect(h.deps.state.pendingQuestion).toMatchObject({ question_id: "q1", question: "Which?" });
    expect(h.runs.get(runId)?.status).toBe("waiting_for_user");
    expect(h.messages.answeredToolCalls(["q1"]).size).toBe(0);
  });

  it("turns an unknown tool into an error result the model reads, and the run goes on", async () => {
    const { h, runId } = started("unused");
    h.messages.append(runId, { role: "assistant", content: null, tool_calls: [call("u1", "nope", {})] });
    expect(await toolStep(h.deps, runId, {})).toEqual({ kind: "done" });
    const [result] = eventsOf(h, "TOOL_CALL_RESULT");
    expect(JSON.parse((result as { content: string }).content)).toMatchObject({
      ok: false,
      error: { code: "unknown_tool" },
    });
  });
});

describe("the finishing step", () => {
  it("stops a scope at its step limit and at its token budget, naming the numbers", () => {
    const { h, runId } = started("unused", { maxSteps: 2, maxTokens: 100 });
    const scope = runScope(h.deps, h.runs.get(runId)!);
    expect(budgetStop(scope)).toBeNull();
    h.runs.addStep(runId, { input_tokens: 60, output_tokens: 50, total_tokens: 110 });
    expect(budgetStop(scope)).toEqual({
      kind: "failed",
      code: "token_limit",
      message: "The run stopped after using 110 tokens (the budget is 100).",
    });
    h.runs.addStep(runId, { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    expect(budgetStop(scope)).toMatchObject({
      code: "step_limit",
      message: "The run stopped after 2 model turns (the limit is 2).",
    });
  });

  it("reminds the model to call finish when an answer does not match the output schema, then fails", () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    const { h, runId } = started("unused", { outputSchema: schema });
    expect(runFinalAnswer(h.deps, runId, '{"n": 3}')).toEqual({
      done: true,
      outcome: { kind: "succeeded", output: { n: 3 } },
    });
    for (let i = 0; i < OUTPUT_REMINDERS; i++)
      expect(runFinalAnswer(h.deps, runId, "plain text")).toEqual({ done: false });
    expect(h.messages.countOf(runId, "system")).toBe(OUTPUT_REMINDERS);
    expect(runFinalAnswer(h.deps, runId, "plain text")).toMatchObject({
      done: true,
      outcome: { kind: "failed", code: "output_invalid" },
    });
  });
});

describe("the context cut", () => {
  const msg = (id: number, role: "user" | "assistant" | "tool"): StoredMessage => ({
    id,
    run_id: "r",
    at: 0,
    message:
      role === "tool"
        ? { role, tool_call_id: `c${id - 1}`, content: "x" }
        : role === "user"
          ? { role, content: "x" }
          : { role, content: null, tool_calls: [call(`c${id}`, "t", {})] },
  });

  it("cuts a long run of tool turns before an assistant message, never between a call and its result", () => {
    const stored = [
      msg(1, "user"),
      ...Array.from({ length: 20 }, (_, i) => msg(i + 2, i % 2 === 0 ? "assistant" : "tool")),
    ];
    const cut = cutPoint(stored)!;
    const kept = stored.filter((m) => m.id > cut);
    expect(kept.length).toBeGreaterThanOrEqual(8);
    expect(kept[0].message.role).toBe("assistant");
    expect(stored.find((m) => m.id === cut)!.message.role).toBe("tool");
  });

  it("does not cut a context shorter than the kept tail", () => {
    expect(cutPoint([msg(1, "user"), msg(2, "assistant"), msg(3, "tool")])).toBeNull();
  });
});
