/**
 * The agent loop — one loop for a conversation's run and for every sub-agent inside it,
 * parameterised by its {@link LoopScope}. Each turn is three steps: the tool step (run the
 * calls still lacking a result), the guards (cancel, budgets), the model turn (context with
 * compaction, then the model). Every model turn and tool result is stored before the next step,
 * so a loop interrupted by an eviction or a deploy continues where it stopped.
 */

import type { Run } from "../store/run-store";
import { contextFor } from "./context-window";
import { filteredAnswer, sendCutAnswerBack } from "./cut-output";
import { answerText, EMPTY_ANSWER, sendEmptyAnswerBack } from "./empty-answer";
import { ev } from "./event-builders";
import { failureStop } from "./failure-streak";
import {
  budgetStop,
  costStop,
  finishRun,
  modelFailure,
  redactEnd,
  runEndOf,
  runFinalAnswer,
  sendRunBack,
} from "./finishing";
import { closeInterruptedStreams, STREAM_EVENT_TYPES } from "./interrupted-streams";
import type { LoopDeps, LoopOutcome, LoopScope } from "./loop-deps";
import { modelStep } from "./model-step";
import { applySteering } from "./steering";
import { type ToolStepResult, toolStep } from "./tool-step";

/** How a call to {@link advanceRun} ended. */
export type AdvanceResult = "finished" | "suspended";

/** What a tool step means for the loop: an outcome that ends it, or null to go on. */
export function toolOutcome(result: ToolStepResult): LoopOutcome | null {
  switch (result.kind) {
    case "suspended":
      return { kind: "suspended" };
    case "finished":
      return { kind: "succeeded", output: result.result };
    case "loop_detected":
      return { kind: "failed", code: "loop_detected", message: result.message };
    default:
      return null;
  }
}

/** Runs a scope's loop from its last checkpoint until it ends or has to wait for a person. */
export async function runLoop(scope: LoopScope): Promise<LoopOutcome> {
  for (;;) {
    if (scope.progress().cancelled) return { kind: "cancelled" };
    if (scope.state.pendingQuestion || scope.state.pendingTakeover) return { kind: "suspended" };
    const tools = await toolStep(scope, scope.runId, scope.retries);
    if (tools.kind === "again") continue;
    const ended = toolOutcome(tools);
    if (ended) return ended;
    const progress = scope.progress();
    if (progress.cancelled) continue;
    const stop = failureStop(scope) ?? budgetStop(scope) ?? (await costStop(scope));
    if (stop) return stop;
    try {
      scope.steer?.apply();
      const context = await contextFor(scope, scope.runId);
      const turn = await modelStep(scope, scope.runId, progress.steps + 1, context);
      const filtered = filteredAnswer(turn);
      if (filtered) return filtered;
      // A message steered in during this turn gets a turn of its own before the loop ends (no note).
      const steered = scope.steer?.pending() ?? false;
      // On the last allowed turn a note could not be answered: the turn is taken as it is.
      const turnLeft = scope.progress().steps < scope.settings.maxSteps;
      if (
        !steered &&
        turnLeft &&
        (sendCutAnswerBack(scope, scope.runId, turn) || sendEmptyAnswerBack(scope, scope.runId, turn))
      )
        continue;
      if (turn.toolCalls.length === 0 && !steered) {
        const text = answerText(scope, scope.runId, turn);
        if (text === null) return EMPTY_ANSWER;
        const answer = scope.finalAnswer(text);
        if (answer.done) return answer.outcome;
      }
    } catch (err) {
      if (scope.progress().cancelled) continue;
      return modelFailure(err);
    }
  }
}

/** The scope of a conversation's own run. */
export function runScope(deps: LoopDeps, run: Run): LoopScope {
  return {
    ...deps,
    runId: run.id,
    name: "run",
    retries: { ...run.retries },
    progress: () => {
      const now = deps.runs.get(run.id);
      return {
        steps: now?.steps ?? 0,
        tokens: now?.usage.total_tokens ?? 0,
        cancelled: Boolean(now?.cancel_requested) || deps.signal.aborted,
      };
    },
    pastEvents: () => mapEvents(deps.log.scan(run.start_seq, STREAM_EVENT_TYPES, { runId: run.id })),
    steer: deps.steering && {
      apply: () => applySteering(deps, run.id),
      pending: () => deps.steering!.has(run.id),
    },
    finalAnswer: (text) => runFinalAnswer(deps, run.id, text),
  };
}

function* mapEvents<T extends { event: E }, E>(rows: Iterable<T>): Generator<E> {
  for (const r of rows) yield r.event;
}

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

/** Advances a conversation's run until it finishes or waits for the user. */
export async function advanceRun(deps: LoopDeps, runId: string): Promise<AdvanceResult> {
  const queued = deps.runs.get(runId);
  if (!queued) return "finished";
  if (queued.status === "queued") startRun(deps, queued);
  const run = deps.runs.get(runId)!;
  const scope = runScope(deps, run);
  if (queued.status !== "queued") closeInterruptedStreams(scope.pastEvents(), (e) => deps.emit(runId, e));
  for (;;) {
    const outcome = await runLoop(scope);
    const ended = runEndOf(outcome);
    if (!ended) return "suspended";
    await deps.redaction?.ready();
    const end = redactEnd(ended, deps.redaction);
    // A succeeded result is reviewed (as it will be shown); a run sent back goes on from a new user message.
    const verdict = end.status === "succeeded" ? await deps.review?.(runId, end.output) : undefined;
    if (verdict?.revise) {
      sendRunBack(deps, runId, verdict.revise);
      continue;
    }
    finishRun(deps, runId, end.status === "succeeded" && verdict ? { ...end, review: verdict.review } : end);
    return "finished";
  }
}
