/**
 * The agent loop: advances one run from its last checkpoint until it finishes or has to
 * wait for a person. Every model turn and every tool result is stored before the next step,
 * so a run interrupted by an eviction or a deploy continues where it stopped.
 */

import { ModelError } from "../model/openai-client";
import type { Run } from "../store/run-store";
import { compileOutputSchema } from "../tools/finish";
import { contextFor } from "./context-window";
import { ev, tokenUsage } from "./event-builders";
import type { LoopDeps } from "./loop-deps";
import { modelStep } from "./model-step";
import { applySteering, requeueSteering } from "./steering";
import { toolStep } from "./tool-step";

/** How a call to {@link advanceRun} ended. */
export type AdvanceResult = "finished" | "suspended";

/** Starts a queued run: RUN_STARTED, the user's message, the state. */
export function startRun(deps: LoopDeps, run: Run): void {
  const started = deps.log.append(run.id, ev.runStarted(deps.conversationId, run.id));
  deps.runs.start(run.id, started.seq);
  deps.messages.append(run.id, { role: "user", content: run.content });
  const messageId = `user_${run.id}`;
  deps.emit(run.id, ev.textStart(messageId, "user"));
  if (run.content) deps.emit(run.id, ev.textContent(messageId, run.content));
  deps.emit(run.id, ev.textEnd(messageId));
  deps.emit(run.id, ev.stateSnapshot(deps.state.snapshot()));
}

/**
 * Closes what an interrupted attempt left open (a text message, tool calls, a step),
 * so the event stream stays well formed after a restart.
 */
export function closeInterruptedStreams(deps: LoopDeps, run: Run): void {
  const events = deps.log.runEventsOfTypes(run.id, run.start_seq, [
    "STEP_STARTED",
    "STEP_FINISHED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_END",
    "TOOL_CALL_START",
    "TOOL_CALL_END",
  ]);
  const openText = new Set<string>();
  const openTools = new Set<string>();
  const openSteps = new Set<string>();
  for (const { event: e } of events) {
    if (e.type === "TEXT_MESSAGE_START") openText.add(e.messageId);
    else if (e.type === "TEXT_MESSAGE_END") openText.delete(e.messageId);
    else if (e.type === "TOOL_CALL_START") openTools.add(e.toolCallId);
    else if (e.type === "TOOL_CALL_END") openTools.delete(e.toolCallId);
    else if (e.type === "STEP_STARTED") openSteps.add(e.stepName);
    else if (e.type === "STEP_FINISHED") openSteps.delete(e.stepName);
  }
  for (const id of openText) deps.emit(run.id, ev.textEnd(id));
  for (const id of openTools) deps.emit(run.id, ev.toolEnd(id));
  for (const name of openSteps) deps.emit(run.id, ev.stepFinished(name));
  if (openText.size || openTools.size || openSteps.size) {
    deps.emit(
      run.id,
      ev.custom("notice", {
        kind: "run_resumed",
        message: "The run was interrupted and resumed from its last checkpoint.",
      }),
    );
  }
}

/** Ends a run and emits its terminal event. */
export function finishRun(
  deps: LoopDeps,
  runId: string,
  outcome:
    | { status: "succeeded"; output: unknown }
    | { status: "cancelled" }
    | { status: "failed"; code: string; message: string },
): void {
  const usage = tokenUsage(
    deps.settings.model,
    deps.runs.get(runId)?.usage ?? { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  );
  if (deps.state.pendingQuestion) deps.state.setPendingQuestion(null);
  if (deps.state.pendingTakeover) deps.state.setPendingTakeover(null);
  deps.onRunEnd?.(runId);
  requeueSteering(deps, runId);
  if (outcome.status === "succeeded") {
    deps.runs.finish(runId, "succeeded", outcome.output);
    deps.emit(runId, ev.runFinished(deps.conversationId, runId, outcome.output, usage));
  } else if (outcome.status === "cancelled") {
    deps.runs.finish(runId, "cancelled", null, { code: "cancelled", message: "The run was cancelled." });
    deps.emit(runId, ev.runFinished(deps.conversationId, runId, null, usage, true));
  } else {
    deps.runs.finish(runId, "failed", null, { code: outcome.code, message: outcome.message });
    deps.emit(runId, ev.runError(deps.conversationId, runId, outcome.code, outcome.message, usage));
  }
}

/** Reminders sent when a run with an output schema ends without a matching result. */
export const OUTPUT_REMINDERS = 2;

type FinalAnswer =
  | { done: true; ok: true; value: unknown }
  | { done: true; ok: false; failure: { status: "failed"; code: string; message: string } }
  | { done: false };

/**
 * The run's output when the model answers without calling finish: its text, or with an output
 * schema the text parsed as JSON when it matches; otherwise the model is reminded to call finish.
 */
function finalAnswer(deps: LoopDeps, runId: string, text: string): FinalAnswer {
  if (!deps.outputSchema) return { done: true, ok: true, value: text };
  const check = compileOutputSchema(deps.outputSchema);
  try {
    const parsed = JSON.parse(text) as unknown;
    if (check.check(parsed).length === 0) return { done: true, ok: true, value: parsed };
  } catch {
    // not JSON: remind below
  }
  const reminders = deps.messages.countOf(runId, "system");
  if (reminders >= OUTPUT_REMINDERS) {
    return {
      done: true,
      ok: false,
      failure: {
        status: "failed",
        code: "output_invalid",
        message: "The run ended without a result matching its output schema.",
      },
    };
  }
  deps.messages.append(runId, {
    role: "system",
    content:
      "This run needs a structured result: call the finish tool with a `result` that matches the output schema.",
  });
  return { done: false };
}

/** Advances a run until it finishes or waits for the user. */
export async function advanceRun(deps: LoopDeps, runId: string): Promise<AdvanceResult> {
  let run = deps.runs.get(runId);
  if (!run) return "finished";
  if (run.status === "queued") startRun(deps, run);
  else closeInterruptedStreams(deps, run);
  const retries = { ...(deps.runs.get(runId)?.retries ?? {}) };
  for (;;) {
    run = deps.runs.get(runId)!;
    if (run.cancel_requested || deps.signal.aborted) {
      finishRun(deps, runId, { status: "cancelled" });
      return "finished";
    }
    if (deps.state.pendingQuestion || deps.state.pendingTakeover) return "suspended";
    const tools = await toolStep(deps, runId, retries);
    if (tools.kind === "suspended") return "suspended";
    if (tools.kind === "again") continue;
    if (tools.kind === "finished") {
      finishRun(deps, runId, { status: "succeeded", output: tools.result });
      return "finished";
    }
    if (tools.kind === "loop_detected") {
      finishRun(deps, runId, { status: "failed", code: "loop_detected", message: tools.message });
      return "finished";
    }
    if (deps.runs.get(runId)!.cancel_requested || deps.signal.aborted) continue;
    if (run.steps >= deps.settings.maxSteps) {
      finishRun(deps, runId, {
        status: "failed",
        code: "step_limit",
        message: `The run stopped after ${run.steps} model turns (the limit is ${deps.settings.maxSteps}).`,
      });
      return "finished";
    }
    const budget = deps.settings.maxTokens;
    if (budget && run.usage.total_tokens >= budget) {
      finishRun(deps, runId, {
        status: "failed",
        code: "token_limit",
        message: `The run stopped after using ${run.usage.total_tokens} tokens (the budget is ${budget}).`,
      });
      return "finished";
    }
    const overBudget = await deps.budget?.beforeTurn(runId);
    if (overBudget) {
      finishRun(deps, runId, { status: "failed", ...overBudget });
      return "finished";
    }
    try {
      applySteering(deps, runId);
      const context = await contextFor(deps, runId);
      const turn = await modelStep(deps, runId, run.steps + 1, context);
      // A message steered in during this turn gets a turn of its own before the run ends.
      if (turn.toolCalls.length === 0 && !deps.steering?.has(runId)) {
        const output = finalAnswer(deps, runId, turn.text);
        if (output.done) {
          finishRun(deps, runId, output.ok ? { status: "succeeded", output: output.value } : output.failure);
          return "finished";
        }
      }
    } catch (err) {
      if (deps.signal.aborted) continue;
      const e =
        err instanceof ModelError
          ? err
          : new ModelError(err instanceof Error ? err.message : String(err), "internal");
      finishRun(deps, runId, { status: "failed", code: e.code, message: e.message });
      return "finished";
    }
  }
}
