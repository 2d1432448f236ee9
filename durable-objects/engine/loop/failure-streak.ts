/**
 * Tool calls that keep failing. A model that fails turn after turn with changing arguments (a
 * selector that never matches, an HTTP tool answering 4xx, a tool it may not use, invalid
 * arguments) slips past the repeat guard, which only sees the same call, and would burn turns
 * until the step limit. The loop counts the model turns in a row in which every tool call ended
 * in an error: at {@link FAILURE_NOTE_AT} of them the model is told once to change course, and at
 * the scope's limit (`max_consecutive_failures`) the run fails `too_many_failures`, naming its
 * last errors. The count is read from the stored messages, so an eviction or a resume changes
 * nothing, a sub-agent (its own message scope) has its own, and a message steered into the run
 * starts it again.
 */
import type { ToolCall } from "../model/model-types";
import { errorCodeOf } from "../tools/tool-runner";
import type { LoopOutcome, LoopScope, StepDeps } from "./loop-deps";

/** Model turns in a row whose tool calls all failed before a run fails, when nothing else is set. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;
/** Failing turns in a row after which the model is told (once a streak) to change course. */
export const FAILURE_NOTE_AT = 3;

/**
 * Error codes that are not the model failing: a denial (by a person or the approval policy), a
 * cancellation, the codes of guards of their own (the repeat guard, a call cut at the provider's
 * output limit) and of the run's own budgets. A turn whose errors are all of these is skipped: it
 * neither counts nor ends a streak.
 */
export const NOT_COUNTED: ReadonlySet<string> = new Set([
  "denied",
  "cancelled",
  "sub_agent_cancelled",
  "repeated_call",
  "loop_detected",
  "output_truncated",
  "token_limit",
  "cost_limit",
]);

/** Errors a `too_many_failures` message names (the newest); the rest are counted. */
const LISTED_ERRORS = 5;
/** Assistant turns looked through past the limit, for skipped ones. */
const SKIPPED_SLACK = 10;
const NOTE_START = "Your tool calls have all failed";

/** One failed call of a streak. */
export interface FailedCall {
  tool: string;
  code: string;
}

/** The failing turns in a row that end a scope's history, and their errors, oldest first. */
export interface FailureStreak {
  turns: number;
  errors: FailedCall[];
  /** Whether the newest turn is one of them (not a skipped one). */
  newestFailed: boolean;
}

type TurnVerdict = { kind: "ok" } | { kind: "skipped" } | { kind: "failed"; errors: FailedCall[] };

/** What one turn's calls came to: any call that did not fail makes it a turn that did not fail. */
function verdictOf(calls: ToolCall[], results: Map<string, string>): TurnVerdict {
  const errors: FailedCall[] = [];
  for (const call of calls) {
    const code = errorCodeOf(results.get(call.id) ?? "");
    if (code === undefined) return { kind: "ok" };
    if (!NOT_COUNTED.has(code)) errors.push({ tool: call.function.name, code });
  }
  return errors.length ? { kind: "failed", errors } : { kind: "skipped" };
}

/** The streak of failing turns at the end of a run's (or sub-agent's) history, counted up to `limit`. */
export function failureStreak(deps: StepDeps, runId: string, limit: number): FailureStreak {
  const streak: FailureStreak = { turns: 0, errors: [], newestFailed: false };
  const recent = deps.messages.recentAssistant(runId, limit + SKIPPED_SLACK);
  // A message the person steered in is new direction: the turns before it are not held against it.
  const steeredAt = deps.messages.lastIdOf(runId, "user");
  for (const [i, { id, message }] of recent.entries()) {
    if (id < steeredAt || message.role !== "assistant" || !message.tool_calls?.length) break;
    const calls = message.tool_calls;
    const verdict = verdictOf(calls, deps.messages.toolResults(calls.map((c) => c.id)));
    if (verdict.kind === "ok") break;
    if (verdict.kind === "skipped") continue;
    if (i === 0) streak.newestFailed = true;
    streak.turns++;
    streak.errors.unshift(...verdict.errors);
    if (streak.turns >= limit) break;
  }
  return streak;
}

/** The scope's limit of failing turns in a row. */
export const failureLimit = (deps: StepDeps) =>
  deps.settings.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;

/**
 * Checked after each tool step: the scope's failure when its failing turns reached the limit;
 * at the note's count (one turn before the limit when that is lower), the note, once; else null.
 * Nothing while a steered message waits: it joins the next turn and starts the count again.
 */
export function failureStop(scope: LoopScope): LoopOutcome | null {
  if (scope.steer?.pending()) return null;
  const limit = failureLimit(scope);
  const streak = failureStreak(scope, scope.runId, limit);
  if (streak.turns >= limit) {
    return { kind: "failed", code: "too_many_failures", message: failureMessage(scope.name, streak, limit) };
  }
  const noteAt = Math.min(FAILURE_NOTE_AT, limit - 1);
  if (noteAt >= 1 && streak.turns === noteAt && streak.newestFailed)
    noteOnce(scope, scope.runId, noteAt, limit);
  return null;
}

/** Adds the note after the newest turn's results unless it is there already (a resumed step). */
function noteOnce(deps: StepDeps, runId: string, turns: number, limit: number): void {
  const last = deps.messages.lastAssistant(runId);
  const after = last ? deps.messages.page(last.id, 200) : [];
  const sent = after.some((m) => m.message.role === "system" && m.message.content.startsWith(NOTE_START));
  if (!sent) deps.messages.append(runId, { role: "system", content: failureNote(deps, turns, limit) });
}

/** The note: the same bytes for every streak of a run (its tools and limit do not change). */
function failureNote(deps: StepDeps, turns: number, limit: number): string {
  const ask = deps.tools.get("ask_user") ? ", ask the user" : "";
  return `${NOTE_START} ${turns} turns in a row. Do not try more variations of the same thing: change your approach${ask}, or finish and say what blocked you. After ${limit} such turns in a row the run is stopped.`;
}

/** The failure's message: how many turns, and the newest errors (tool and code), bounded. */
export function failureMessage(name: string, streak: FailureStreak, limit: number): string {
  const listed = streak.errors.slice(-LISTED_ERRORS).map((e) => `${e.tool} ${e.code}`);
  const more = streak.errors.length - listed.length;
  const tail = more > 0 ? ` (and ${more} earlier)` : "";
  return `The ${name} stopped after ${streak.turns} model turns in a row in which every tool call failed (the limit is ${limit}). Last errors: ${listed.join(", ")}${tail}.`;
}
