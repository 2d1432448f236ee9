/**
 * Executes the tool calls of the run's latest assistant message that have no result yet,
 * concurrently, checkpointing each result as it lands. A call already answered (before an
 * eviction, say) is never run again. A call the approval policy holds is not executed: it waits
 * for a person's decision while the other calls run, and the run is suspended until it has one.
 */

import { filesWritten } from "../files/written-files";
import type { ToolCall } from "../model/model-types";
import { errorResult, runTool, type ToolOutcome } from "../tools/tool-runner";
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
  let n = 0;
  for (const t of turns) {
    if (t.message.role !== "assistant" || !t.message.tool_calls?.some((c) => signature(c) === sig)) break;
    n++;
  }
  return n;
}

/** Runs every pending tool call of the run. */
export async function toolStep(
  deps: StepDeps,
  runId: string,
  retries: Record<string, number>,
): Promise<ToolStepResult> {
  const pending = pendingToolCalls(deps, runId);
  if (pending.length === 0) return { kind: "none" };
  let suspended = false;
  const held: string[] = [];
  let finished: { result: unknown } | null = null;
  let loop: string | null = null;
  const settle = (call: ToolCall, outcome: ToolOutcome) => {
    if (outcome.kind === "suspend" || outcome.kind === "takeover") {
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
      suspended = true;
      return;
    }
    if (outcome.kind === "finish") finished ??= { result: outcome.result };
    const isError = outcome.kind === "result" && outcome.isError;
    deps.messages.append(runId, { role: "tool", tool_call_id: call.id, content: outcome.content });
    const files = filesWritten(call.function.name, outcome.content, isError);
    deps.emit(runId, ev.toolResult(call.id, outcome.content, isError, files));
  };
  await Promise.all(
    pending.map(async (call) => {
      const repeats = repeatCount(deps, runId, call);
      if (repeats >= REPEAT_ABORT_AT) {
        loop = `${call.function.name} was called with the same arguments ${repeats} turns in a row.`;
        return settle(call, errorResult("loop_detected", loop));
      }
      if (repeats >= REPEAT_REFUSE_AT) {
        return settle(
          call,
          errorResult(
            "repeated_call",
            `You called ${call.function.name} with these exact arguments ${repeats} turns in a row; it was not run again. Use the earlier result or change your approach.`,
          ),
        );
      }
      // A tool the conversation's policy refuses is never run, nor put to a person for approval.
      const refused = deps.tools.refusal(call.function.name);
      if (refused) return settle(call, errorResult("tool_not_allowed", refused));
      const gate = deps.approvals
        ? await deps.approvals.gate(runId, call, deps.tools.get(call.function.name))
        : ({ kind: "run", arguments: call.function.arguments } as const);
      if (gate.kind === "hold") {
        held.push(call.id);
        return;
      }
      if (gate.kind === "result") return settle(call, gate.outcome);
      const endSpan = deps.tracer?.tool(runId, call);
      const outcome = await runTool(
        deps.tools,
        call.function.name,
        gate.arguments,
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
      settle(call, outcome);
    }),
  );
  deps.ledger.saveRetries(runId, retries);
  if (loop) return { kind: "loop_detected", message: loop };
  if (held.length) {
    // A decision that came while the other calls ran is taken up by the next tool step at once.
    if (held.some((id) => !deps.approvals?.isHeld(runId, id))) return { kind: "again" };
    if (!deps.state.pendingQuestion && !deps.state.pendingTakeover)
      deps.ledger.setStatus(runId, "waiting_for_approval");
    return { kind: "suspended" };
  }
  if (finished) return { kind: "finished", result: (finished as { result: unknown }).result };
  const paused = suspended || deps.state.pendingQuestion || deps.state.pendingTakeover;
  return paused ? { kind: "suspended" } : { kind: "done" };
}
