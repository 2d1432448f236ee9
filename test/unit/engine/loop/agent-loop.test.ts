import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceRun, startRun } from "../../../../durable-objects/engine/loop/agent-loop";
import { ev } from "../../../../durable-objects/engine/loop/event-builders";
import { type ScriptedModel, startScriptedModel } from "../../../support/scripted-model";
import { eventsOf, harness, requests, script, subAgentEvents } from "../../support/loop-harness";

let llm: ScriptedModel;
beforeAll(async () => {
  llm = await startScriptedModel();
});
afterAll(async () => {
  await llm.close();
});

const newKey = (name: string) => `${name}-${crypto.randomUUID()}`;
const usage = (prompt_tokens: number, completion_tokens: number) => ({
  usage: { prompt_tokens, completion_tokens },
});
const agentCall = (id: string, prompt: string, description?: string) => ({
  id,
  name: "agent",
  arguments: { prompt, ...(description ? { description } : {}) },
});

describe("one agent loop for runs", () => {
  it("runs tools and model turns until the model answers, then finishes the run", async () => {
    const key = newKey("loop");
    await script(llm.url, key, [
      { tool_calls: [{ id: "c1", name: "sleep_tool", arguments: { label: "a" } }] },
      { text: "all done" },
    ]);
    const h = harness(llm.url, key);
    const runId = h.enqueue("go");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    expect(h.toolRuns).toEqual(["a"]);
    expect(h.runs.get(runId)).toMatchObject({ status: "succeeded", output: "all done", steps: 2 });
    expect(eventsOf(h, "RUN_FINISHED")).toEqual([expect.objectContaining({ result: "all done" })]);
  });

  it("closes what an interrupted attempt left open, says it resumed, and carries on", async () => {
    const key = newKey("resume");
    await script(llm.url, key, [{ text: "finished after the restart" }]);
    const h = harness(llm.url, key);
    const runId = h.enqueue("go");
    startRun(h.deps, h.runs.get(runId)!);
    // what a crash mid-answer leaves: an open step and an open text message
    h.deps.emit(runId, ev.stepStarted("step_1"));
    h.deps.emit(runId, ev.textStart("msg_lost", "assistant"));
    h.deps.emit(runId, ev.textContent("msg_lost", "half an ans"));
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const types = h.events().map((e) => e.event);
    const resumedAt = types.findIndex((e) => e.type === "CUSTOM" && e.name === "notice");
    expect(types.slice(resumedAt - 2, resumedAt + 1)).toEqual([
      expect.objectContaining({ type: "TEXT_MESSAGE_END", messageId: "msg_lost" }),
      expect.objectContaining({ type: "STEP_FINISHED", stepName: "step_1" }),
      expect.objectContaining({
        type: "CUSTOM",
        name: "notice",
        value: expect.objectContaining({ kind: "run_resumed" }),
      }),
    ]);
    expect(h.runs.get(runId)).toMatchObject({ status: "succeeded", output: "finished after the restart" });
  });
});

describe("sub-agents on the same loop", () => {
  it("are stopped by the run's token budget, and so is the run", async () => {
    const key = newKey("sub-budget");
    await script(llm.url, key, [
      { tool_calls: [agentCall("call_b", "spend tokens")], ...usage(100, 20) },
      ...Array.from({ length: 4 }, (_, i) => ({
        tool_calls: [{ name: "sleep_tool", arguments: { label: `s${i}` } }],
        ...usage(300, 100),
      })),
      { text: "never reached", ...usage(1, 1) },
    ]);
    const h = harness(llm.url, key, { maxTokens: 900, subAgentMaxSteps: 4 });
    const runId = h.enqueue("go");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    // 120 (parent) + 400 + 400 = 920 ≥ 900 after the sub-agent's second turn
    expect(h.toolRuns).toEqual(["s0", "s1"]);
    expect(subAgentEvents(h, "call_b").at(-1)).toMatchObject({ type: "RUN_ERROR", code: "token_limit" });
    expect(h.runs.get(runId)).toMatchObject({
      status: "failed",
      error: { code: "token_limit", message: "The run stopped after using 920 tokens (the budget is 900)." },
    });
    expect(await requests(llm.url, key)).toHaveLength(3);
  });

  it("have their own context summarised when it nears the window, under their own scope", async () => {
    const key = newKey("sub-compact");
    const label = (i: number) => `${i}`.padEnd(1_000, "x");
    await script(llm.url, key, [
      { tool_calls: [agentCall("call_c", "many big tool turns")] },
      ...Array.from({ length: 7 }, (_, i) => ({
        tool_calls: [{ name: "sleep_tool", arguments: { label: label(i) } }],
      })),
      { text: "the sub-agent's summary" },
      { text: "sub-agent done" },
      { text: "parent done" },
    ]);
    const h = harness(llm.url, key, { contextTokens: 5_600, subAgentMaxSteps: 9 });
    const runId = h.enqueue("go");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const sent = await requests(llm.url, key);
    expect(sent).toHaveLength(11);
    expect(String(sent[8].messages[0].content)).toContain("Summarise the conversation below");
    expect(sent[9].messages[1]).toEqual({
      role: "system",
      content: "Summary of the earlier conversation:\nthe sub-agent's summary",
    });
    expect(h.deps.summaryFor("sub:call_c").get()).toMatchObject({ text: "the sub-agent's summary" });
    expect(h.deps.summary.get()).toBeNull();
    expect(subAgentEvents(h, "call_c")).toContainEqual(
      expect.objectContaining({
        type: "CUSTOM",
        name: "notice",
        value: expect.objectContaining({ kind: "context_compacted" }),
      }),
    );
    expect(h.runs.get(runId)).toMatchObject({ status: "succeeded", output: "parent done" });
  });

  it("close their own interrupted streams when the run resumes mid sub-agent", async () => {
    const key = newKey("sub-resume");
    await script(llm.url, key, [{ text: "sub-agent finished" }, { text: "parent finished" }]);
    const h = harness(llm.url, key);
    const runId = h.enqueue("go");
    startRun(h.deps, h.runs.get(runId)!);
    h.messages.append(runId, {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_s", type: "function", function: { name: "agent", arguments: '{"prompt":"sub task"}' } },
      ],
    });
    // the sub-agent had started and was cut off mid-answer
    h.messages.scoped("sub:call_s").append(runId, { role: "user", content: "sub task" });
    const forward = (event: ReturnType<typeof ev.stepStarted>) =>
      h.deps.emit(
        runId,
        ev.custom("sub_agent_event", {
          sub_agent_id: "call_s",
          label: "sub task",
          agent_type: "general",
          event,
        }),
      );
    forward(ev.runStarted("conv_test", "call_s"));
    forward(ev.stepStarted("step_1"));
    forward(ev.textStart("msg_cut", "assistant"));
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const sub = subAgentEvents(h, "call_s")
      .map((e) => e.type)
      .filter((t) => t !== "TEXT_MESSAGE_CONTENT");
    expect(sub).toEqual([
      "RUN_STARTED",
      "STEP_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "CUSTOM",
      "STEP_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "RUN_FINISHED",
    ]);
    expect(h.runs.get(runId)).toMatchObject({ status: "succeeded", output: "parent finished" });
  });

  it("each get their own usage line in the run's usage, counted in its totals", async () => {
    const key = newKey("sub-usage");
    await script(llm.url, key, [
      {
        tool_calls: [agentCall("call_1", "first", "first helper"), agentCall("call_2", "second")],
        ...usage(10, 5),
      },
      { tool_calls: [{ name: "sleep_tool", arguments: { label: "x" } }], ...usage(100, 10) },
      { text: "one", ...usage(200, 20) },
      { text: "two", ...usage(300, 30) },
      { text: "both done", ...usage(40, 4) },
    ]);
    const h = harness(llm.url, key);
    const runId = h.enqueue("go");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const run = h.runs.get(runId)!;
    expect(run.steps).toBe(2);
    expect(run.usage.total_tokens).toBe(15 + 110 + 220 + 330 + 44);
    const lines = run.usage.sub_agents!;
    expect(lines.map((l) => l.id).sort()).toEqual(["call_1", "call_2"]);
    const sum = lines.reduce((n, l) => n + l.total_tokens, 0);
    expect(sum).toBe(110 + 220 + 330);
    expect(lines.reduce((n, l) => n + l.steps, 0)).toBe(3);
    expect(lines.find((l) => l.id === "call_1")).toMatchObject({ type: "general", label: "first helper" });
    const finished = subAgentEvents(h, "call_1").at(-1) as { type: string; usage: { totalTokens: number }[] };
    expect(finished.type).toBe("RUN_FINISHED");
    expect(finished.usage[0].totalTokens).toBe(lines.find((l) => l.id === "call_1")!.total_tokens);
  });
});
