/**
 * Executes the tool calls of the run's latest assistant message that have no result yet,
 * concurrently, checkpointing each result as it lands. A call already answered (before an
 * eviction, say) is never run again. A call the approval policy holds is not executed: it waits
 * for a person's decision while the other calls run, and the run is suspended until it has one.
 */

import { filesWritten } from "../files/written-files";
import type { ToolCall } from "../model/model-types";
import { errorResult, runTool, type ToolOutcome } from "../tools/tool-runner";
import { CALL_TOOL, callOfNamedTool } from "../tools/tool-search";
import { ev } from "./event-builders";
import type { StepDeps } from "./loop-deps";

/** The same call this many turns in a row is refused instead of run. */
export const REPEAT_REFUSE_AT = 3;
/** The same call this many turns in a row ends the run. */
export const REPEAT_ABORT_AT = 5;

/** What the tool step came to. */
export type ToolStepResult =
  | { kind: "none" }
  | { kind: "done" }
  | { kind: "suspended" }
  /** A held call was decided while the others ran: run the tool step again before the model. */
  | { kind: "again" }
  | { kind: "finished"; result: unknown }
  | { kind: "loop_detected"; message: string };

/** The calls of the run's last assistant message that still lack a result. */
export function pendingToolCalls(deps: StepDeps, runId: string): ToolCall[] {
  const last = deps.messages.lastAssistant(runId);
  if (last?.message.role !== "assistant" || !last.message.tool_calls?.length) return [];
  const calls = last.message.tool_calls;
  const answered = deps.messages.answeredToolCalls(calls.map((c) => c.id));
  return calls.filter((c) => !answered.has(c.id));
}

/** A call as it runs: a `call_tool` call is the call of the tool it names (tool-search.ts). */
function namedCall(deps: StepDeps, call: ToolCall): ToolCall | { error: string } {
  if (call.function.name !== CALL_TOOL) return call;
  const searchable = deps.tools.names().filter((name) => deps.tools.get(name)?.searchable);
  const named = callOfNamedTool(call, searchable) ?? call;
  // While tools are searched for, a call naming none is answered; once they all fit the list again
  // (a held call approved later), a call naming one is still its call, anything else runs as is.
  return deps.tools.get(CALL_TOOL) || !("error" in named) ? named : call;
}

/** What the repeat guard compares: the named tool's call, or the `call_tool` call itself when it names none. */
function guardedCall(deps: StepDeps, call: ToolCall): ToolCall {
  const named = namedCall(deps, call);
  return "error" in named ? call : named;
}

const signature = (c: ToolCall) => `${c.function.name}\u0000${canonical(c.function.arguments)}`;

function canonical(args: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(args)));
  } catch {
    return args;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  }
  return v;
}

/** How many of the run's latest assistant turns in a row contain this call. */
function repeatCount(deps: StepDeps, runId: string, call: ToolCall): number {
  const turns = deps.messages.recentAssistant(runId, REPEAT_ABORT_AT);
  const sig = signature(call);
  const same = (c: ToolCall) => signature(guardedCall(deps, c)) === sig;
  let n = 0;
  for (const t of turns) {
    if (t.message.role !== "assistant" || !t.message.tool_calls?.some(same)) break;
    n++;
  }
  return n;
}

/** What the calls of one tool step came to, gathered as each call settles. */
interface StepTally {
  /** A call put the run on hold for a person's answer or takeover. */
  suspended: boolean;
  /** The ids of the calls the approval policy holds for a decision. */
  held: string[];
  /** The first call that finished the run, with its result. */
  finished: { result: unknown } | null;
  /** Why the run ends as a loop, when a call was repeated too many turns in a row. */
  loop: string | null;
}

/** Runs every pending tool call of the run. */
export async function toolStep(
  deps: StepDeps,
  runId: string,
  retries: Record<string, number>,
): Promise<ToolStepResult> {
  const pending = pendingToolCalls(deps, runId);
  if (pending.length === 0) return { kind: "none" };
  const tally: StepTally = { suspended: false, held: [], finished: null, loop: null };
  await Promise.all(pending.map((call) => stepNamedCall(deps, runId, retries, tally, call)));
  deps.ledger.saveRetries(runId, retries);
  return stepResult(deps, runId, tally);
}

/** Takes a `call_tool` call as the call of the tool it names; answers one that names none properly. */
function stepNamedCall(
  deps: StepDeps,
  runId: string,
  retries: Record<string, number>,
  tally: StepTally,
  call: ToolCall,
): Promise<void> | void {
  const named = namedCall(deps, call);
  // One that names no tool it may call is answered, but still counted by the repeat guard.
  if ("error" in named) {
    const outcome =
      repeatedCallOutcome(deps, runId, call, tally) ?? errorResult("invalid_arguments", named.error);
    return settleCall(deps, runId, tally, call, outcome);
  }
  return stepCall(deps, runId, retries, tally, named);
}

/** Takes one pending call past the repeat guard, the conversation's policy and approval, then runs it. */
async function stepCall(
  deps: StepDeps,
  runId: string,
  retries: Record<string, number>,
  tally: StepTally,
  call: ToolCall,
): Promise<void> {
  const repeated = repeatedCallOutcome(deps, runId, call, tally);
  if (repeated) return settleCall(deps, runId, tally, call, repeated);
  // A tool the conversation's policy refuses is never run, nor put to a person for approval.
  const refused = deps.tools.refusal(call.function.name);
  if (refused) return settleCall(deps, runId, tally, call, errorResult("tool_not_allowed", refused));
  const gate = deps.approvals
    ? await deps.approvals.gate(runId, call, deps.tools.get(call.function.name))
    : ({ kind: "run", arguments: call.function.arguments } as const);
  if (gate.kind === "hold") {
    tally.held.push(call.id);
    return;
  }
  if (gate.kind === "result") return settleCall(deps, runId, tally, call, gate.outcome);
  const outcome = await runApprovedCall(deps, runId, retries, call, gate.arguments);
  settleCall(deps, runId, tally, call, outcome);
}

/** The result standing in for a call repeated too many turns in a row (noting a loop), or null to go on. */
function repeatedCallOutcome(
  deps: StepDeps,
  runId: string,
  call: ToolCall,
  tally: StepTally,
): ToolOutcome | null {
  const repeats = repeatCount(deps, runId, call);
  if (repeats >= REPEAT_ABORT_AT) {
    tally.loop = `${call.function.name} was called with the same arguments ${repeats} turns in a row.`;
    return errorResult("loop_detected", tally.loop);
  }
  if (repeats >= REPEAT_REFUSE_AT) {
    return errorResult(
      "repeated_call",
      `You called ${call.function.name} with these exact arguments ${repeats} turns in a row; it was not run again. Use the earlier result or change your approach.`,
    );
  }
  return null;
}

/** Runs a call the policies let through, inside its trace span. */
async function runApprovedCall(
  deps: StepDeps,
  runId: string,
  retries: Record<string, number>,
  call: ToolCall,
  args: string,
): Promise<ToolOutcome> {
  const endSpan = deps.tracer?.tool(runId, call);
  const outcome = await runTool(
    deps.tools,
    call.function.name,
    args,
    {
      conversationId: deps.conversationId,
      workspaceId: deps.workspaceId,
      runId,
      toolCallId: call.id,
      signal: deps.signal,
    },
    deps.settings.limits,
    retries,
    deps.spill,
  );
  endSpan?.(outcome);
  return outcome;
}

/** Records what a call came to: a pause for a person, or a result the model reads. */
function settleCall(
  deps: StepDeps,
  runId: string,
  tally: StepTally,
  call: ToolCall,
  outcome: ToolOutcome,
): void {
  if (outcome.kind === "suspend" || outcome.kind === "takeover") {
    pauseForPerson(deps, runId, tally, outcome);
    return;
  }
  if (outcome.kind === "finish") tally.finished ??= { result: outcome.result };
  const isError = outcome.kind === "result" && outcome.isError;
  deps.messages.append(runId, { role: "tool", tool_call_id: call.id, content: outcome.content });
  const files = filesWritten(call.function.name, outcome.content, isError);
  deps.emit(runId, ev.toolResult(call.id, outcome.content, isError, files));
}

/** Puts the run on hold for a person's answer or takeover. */
function pauseForPerson(
  deps: StepDeps,
  runId: string,
  tally: StepTally,
  outcome: Extract<ToolOutcome, { kind: "suspend" | "takeover" }>,
): void {
  // One pause at a time; a second one is asked again when the run resumes.
  if (deps.state.pendingQuestion || deps.state.pendingTakeover) return;
  if (outcome.kind === "suspend") {
    deps.state.setPendingQuestion(outcome.question);
    deps.emit(runId, ev.custom("ask_user", outcome.question));
  } else {
    const { takeover_id, tab_id, reason } = outcome.takeover;
    deps.state.setPendingTakeover(outcome.takeover);
    deps.emit(runId, ev.custom("takeover_requested", { takeover_id, tab_id, reason }));
  }
  deps.ledger.setStatus(runId, "waiting_for_user");
  tally.suspended = true;
}

/** What the step came to once every call has settled. */
function stepResult(deps: StepDeps, runId: string, tally: StepTally): ToolStepResult {
  if (tally.loop) return { kind: "loop_detected", message: tally.loop };
  if (tally.held.length) {
    // A decision that came while the other calls ran is taken up by the next tool step at once.
    if (tally.held.some((id) => !deps.approvals?.isHeld(runId, id))) return { kind: "again" };
    if (!deps.state.pendingQuestion && !deps.state.pendingTakeover)
      deps.ledger.setStatus(runId, "waiting_for_approval");
    return { kind: "suspended" };
  }
  if (tally.finished) return { kind: "finished", result: tally.finished.result };
  const paused = tally.suspended || deps.state.pendingQuestion || deps.state.pendingTakeover;
  return paused ? { kind: "suspended" } : { kind: "done" };
}
