/**
 * The finishing step: what a loop's end means. Budget guards that stop a loop, the final answer
 * of a run with an output schema, a model failure as an outcome, and the terminal events of a run.
 */
import type { RunReview } from "../../../schemas/research";
import { ModelError } from "../model/openai-client";
import type { Redaction } from "../secrets/secret-redactor";
import { compileOutputSchema } from "../tools/finish";
import { ev, tokenUsage } from "./event-builders";
import type { FinalAnswer, LoopDeps, LoopOutcome, LoopScope } from "./loop-deps";
import { modelOf } from "./run-model";
import { requeueSteering } from "./steering";

/** Reminders sent when a run with an output schema ends without a matching result. */
export const OUTPUT_REMINDERS = 2;
const OUTPUT_REMINDER =
  "This run needs a structured result: call the finish tool with a `result` that matches the output schema.";

/** The step or token budget a scope has used up, as a failure; null while it may go on. */
export function budgetStop(scope: LoopScope): LoopOutcome | null {
  const { steps, tokens } = scope.progress();
  const { maxSteps, maxTokens } = scope.settings;
  if (steps >= maxSteps) {
    return {
      kind: "failed",
      code: "step_limit",
      message: `The ${scope.name} stopped after ${steps} model turns (the limit is ${maxSteps}).`,
    };
  }
  if (maxTokens && tokens >= maxTokens) {
    return {
      kind: "failed",
      code: "token_limit",
      message: `The ${scope.name} stopped after using ${tokens} tokens (the budget is ${maxTokens}).`,
    };
  }
  return null;
}

/** The run's dollar budgets (conversation max_cost_usd, workspace daily), checked before each model turn. */
export async function costStop(scope: LoopScope): Promise<LoopOutcome | null> {
  const over = await scope.budget?.beforeTurn(scope.runId);
  return over ? { kind: "failed", code: over.code, message: over.message } : null;
}

/** A thrown model call as the loop's outcome. */
export function modelFailure(err: unknown): LoopOutcome {
  const e =
    err instanceof ModelError
      ? err
      : new ModelError(err instanceof Error ? err.message : String(err), "internal");
  return { kind: "failed", code: e.code, message: e.message };
}

/**
 * A run's output when the model answers without calling finish: its text, or with an output
 * schema the text parsed as JSON when it matches; otherwise the model is reminded to call finish.
 */
export function runFinalAnswer(deps: LoopDeps, runId: string, text: string): FinalAnswer {
  if (!deps.outputSchema) return { done: true, outcome: { kind: "succeeded", output: text } };
  const check = compileOutputSchema(deps.outputSchema);
  try {
    const parsed = JSON.parse(text) as unknown;
    if (check.check(parsed).length === 0)
      return { done: true, outcome: { kind: "succeeded", output: parsed } };
  } catch {
    // not JSON: remind below
  }
  // Counted by their text: the loop's other notes (a cut or an empty answer) are system messages too.
  if (deps.messages.countStartingWith(runId, "system", OUTPUT_REMINDER) >= OUTPUT_REMINDERS) {
    return {
      done: true,
      outcome: {
        kind: "failed",
        code: "output_invalid",
        message: "The run ended without a result matching its output schema.",
      },
    };
  }
  deps.messages.append(runId, { role: "system", content: OUTPUT_REMINDER });
  return { done: false };
}

/** What a run ends with (a suspended loop does not end its run). */
export type RunEnd =
  | { status: "succeeded"; output: unknown; review?: RunReview }
  | { status: "cancelled" }
  | { status: "failed"; code: string; message: string };

/** The run's end for a loop outcome; null when the run only paused. */
export function runEndOf(outcome: LoopOutcome): RunEnd | null {
  switch (outcome.kind) {
    case "succeeded":
      return { status: "succeeded", output: outcome.output };
    case "cancelled":
      return { status: "cancelled" };
    case "failed":
      return { status: "failed", code: outcome.code, message: outcome.message };
    case "suspended":
      return null;
  }
}

/** A run's end with typed secrets' values taken out of its output and error message. */
export function redactEnd(end: RunEnd, redaction: Redaction | undefined): RunEnd {
  if (!redaction) return end;
  if (end.status === "succeeded") return { ...end, output: redaction.value(end.output) };
  if (end.status === "failed") return { ...end, message: redaction.text(end.message) };
  return end;
}

/** Ends a run and emits its terminal event. */
export function finishRun(deps: LoopDeps, runId: string, end: RunEnd): void {
  const usage = tokenUsage(
    modelOf(deps, runId),
    deps.runs.get(runId)?.usage ?? { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  );
  if (deps.state.pendingQuestion) deps.state.setPendingQuestion(null);
  if (deps.state.pendingTakeover) deps.state.setPendingTakeover(null);
  deps.onRunEnd?.(runId);
  requeueSteering(deps, runId);
  if (end.status === "succeeded") {
    deps.runs.finish(runId, "succeeded", end.output);
    deps.emit(
      runId,
      ev.runFinished(deps.conversationId, runId, end.output, usage, false, reviewFields(end.review)),
    );
  } else if (end.status === "cancelled") {
    deps.runs.finish(runId, "cancelled", null, { code: "cancelled", message: "The run was cancelled." });
    deps.emit(runId, ev.runFinished(deps.conversationId, runId, null, usage, true));
  } else {
    deps.runs.finish(runId, "failed", null, { code: end.code, message: end.message });
    deps.emit(runId, ev.runError(deps.conversationId, runId, end.code, end.message, usage));
  }
}

/** The review's fields RUN_FINISHED carries: those that were checked. */
function reviewFields(review: RunReview | undefined): Record<string, unknown> {
  if (!review) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(review)) if (value !== null) fields[key] = value;
  if (!review.revisions) delete fields.revisions;
  return fields;
}

/** Sends a finished run back with a user message (appended: earlier messages never change). */
export function sendRunBack(deps: LoopDeps, runId: string, content: string): void {
  const stored = deps.messages.append(runId, { role: "user", content });
  const messageId = `revision_${stored.id}`;
  deps.emit(runId, ev.textStart(messageId, "user"));
  deps.emit(runId, ev.textContent(messageId, content));
  deps.emit(runId, ev.textEnd(messageId));
}
