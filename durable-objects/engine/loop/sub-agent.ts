/**
 * Sub-agents: the same agent loop as a run, in a scope of its own inside a parent run — its own
 * context (kept under its own message scope and summary, so it survives eviction like any run),
 * its own step budget and usage line, the run's token budget, a tool set chosen by type, and its
 * events forwarded to the parent as `sub_agent_event`.
 */

import type { CirrusEvent } from "../../../schemas/events";
import { BROWSER_TOOL_NAMES } from "../custom-tools/reserved-names";
import { type SubAgentRef, type SubAgentType, subAgentLine } from "../store/run-store";
import { ToolError, ToolRegistry } from "../tools/tool";
import { runLoop } from "./agent-loop";
import { emptyRecord, StateHolder } from "./conversation-state";
import { ev, tokenUsage } from "./event-builders";
import { closeInterruptedStreams } from "./interrupted-streams";
import type { LoopDeps, LoopOutcome, LoopScope, RunLedger } from "./loop-deps";
import { modelOf } from "./run-model";

export type { SubAgentType } from "../store/run-store";

/** What a sub-agent may use, by type. */
export const SUB_AGENT_TOOLS = {
  researcher: ["web_search", "web_fetch", "get_tab_content", "list_tabs", "opfs_read", "opfs_list"],
  page_operator: BROWSER_TOOL_NAMES,
} as const;

/** Tools a sub-agent never gets: no questions, no recursion, no ending the parent's run. */
export const SUB_AGENT_EXCLUDED = new Set(["ask_user", "request_takeover", "agent", "finish"]);

/** One sub-agent invocation. */
export interface SubAgentSpec {
  /** Stable id: the parent's tool call id, so a resumed run finds the sub-agent's context. */
  id: string;
  prompt: string;
  description?: string;
  type: SubAgentType;
  tabId?: number;
  maxSteps: number;
}

/** The parent's tools narrowed to what a sub-agent of this type may use. */
export function subAgentTools(parent: ToolRegistry, type: SubAgentType): ToolRegistry {
  const allowed = type === "general" ? null : new Set<string>(SUB_AGENT_TOOLS[type]);
  const out = new ToolRegistry().limitOffer(parent.offerLimits);
  for (const name of parent.names()) {
    if (SUB_AGENT_EXCLUDED.has(name) || (allowed && !allowed.has(name))) continue;
    out.add(parent.get(name)!);
  }
  return out;
}

/** The sub-agent's own instructions (they replace the conversation's). */
export function subAgentInstructions(spec: SubAgentSpec): string {
  const role = {
    researcher: "You are a research sub-agent: find and read information; do not change anything.",
    page_operator: "You are a browser sub-agent: operate web pages with the tab and page tools.",
    general: "You are a sub-agent working on one sub-task.",
  }[spec.type];
  const tab = spec.tabId !== undefined ? ` Work in browser tab ${spec.tabId}, which was handed to you.` : "";
  return `${role}${tab} Work independently; when done, answer with the result of the sub-task only — it is returned to the agent that started you.`;
}

/** The message scope a sub-agent's context is kept under. */
export const subAgentScopeName = (id: string) => `sub:${id}`;

/** The loop scope of one sub-agent inside run `runId` of `parent`. */
export function subAgentScope(parent: LoopDeps, runId: string, spec: SubAgentSpec): LoopScope {
  const ref: SubAgentRef = {
    id: spec.id,
    type: spec.type,
    label: spec.description ?? spec.prompt.slice(0, 40),
  };
  const forward = (event: CirrusEvent) =>
    parent.emit(
      runId,
      ev.custom("sub_agent_event", { sub_agent_id: ref.id, label: ref.label, agent_type: ref.type, event }),
    );
  // The parent's ledger (priced, budgeted) with every call booked to this sub-agent's line.
  const ledger: RunLedger = {
    addStep: (id, usage) => parent.ledger.addStep(id, usage, ref),
    addUsage: (id, usage) => parent.ledger.addUsage(id, usage, ref),
    saveRetries: () => {},
    setStatus: () => {},
  };
  const scope = subAgentScopeName(spec.id);
  return {
    ...parent,
    runId,
    name: "sub-agent",
    ledger,
    messages: parent.messages.scoped(scope),
    // No ask_user here: the sub-agent's state is its own and never waits.
    state: new StateHolder(emptyRecord(), () => {}),
    tools: subAgentTools(parent.tools, spec.type),
    emit: (_id, event) => forward(event),
    // Nothing inside a sub-agent can wait for a person: a call that needs approval is denied there.
    approvals: parent.approvals && {
      gate: (id, call, tool) => parent.approvals!.gate(id, call, tool, false),
      isHeld: () => false,
    },
    summary: parent.summaryFor(scope),
    cleared: parent.cleared.scoped(scope),
    settings: {
      ...parent.settings,
      instructions: subAgentInstructions(spec),
      maxSteps: spec.maxSteps,
      prompt: { timeZone: null, ...parent.settings.prompt, role: "sub_agent" },
    },
    retries: {},
    progress: () => {
      const run = parent.runs.get(runId);
      return {
        steps: run ? (subAgentLine(run, spec.id)?.steps ?? 0) : 0,
        tokens: run?.usage.total_tokens ?? 0,
        cancelled: Boolean(run?.cancel_requested) || parent.signal.aborted,
      };
    },
    pastEvents: () => forwardedEvents(parent, runId, spec.id),
    finalAnswer: (text) => ({ done: true, outcome: { kind: "succeeded", output: text } }),
  };
}

/** The sub-agent's own events among the run's forwarded ones. */
function* forwardedEvents(parent: LoopDeps, runId: string, id: string): Generator<CirrusEvent> {
  const start = parent.runs.get(runId)?.start_seq ?? 0;
  for (const { event } of parent.log.scan(start, ["CUSTOM"], { runId })) {
    if (event.type !== "CUSTOM" || event.name !== "sub_agent_event") continue;
    const value = event.value as { sub_agent_id?: string; event?: CirrusEvent };
    if (value.sub_agent_id === id && value.event) yield value.event;
  }
}

/** Runs (or resumes) a sub-agent to its final answer; a failure is a ToolError the parent reads. */
export async function runSubAgent(parent: LoopDeps, runId: string, spec: SubAgentSpec): Promise<string> {
  const span = parent.tracer?.subAgent(runId, spec);
  try {
    const answer = await driveSubAgent({ ...parent, tracer: span?.tracer ?? null }, runId, spec);
    span?.end(answer);
    return answer;
  } catch (err) {
    span?.end(null, err);
    throw err;
  }
}

async function driveSubAgent(parent: LoopDeps, runId: string, spec: SubAgentSpec): Promise<string> {
  const scope = subAgentScope(parent, runId, spec);
  const forward = (e: CirrusEvent) => scope.emit(runId, e);
  if (scope.messages.count() === 0) {
    scope.messages.append(runId, { role: "user", content: spec.prompt });
    forward(ev.runStarted(parent.conversationId, spec.id));
  } else {
    closeInterruptedStreams(scope.pastEvents(), forward);
  }
  const outcome = await runLoop(scope);
  const run = parent.runs.get(runId);
  const line = run ? subAgentLine(run, spec.id) : undefined;
  const usage = tokenUsage(
    modelOf(parent, runId),
    line ?? { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  );
  if (outcome.kind === "succeeded") {
    forward(ev.runFinished(parent.conversationId, spec.id, outcome.output, usage));
    return String(outcome.output);
  }
  const error = subAgentError(outcome, spec);
  forward(ev.runError(parent.conversationId, spec.id, error.code, error.message, usage));
  throw error;
}

/** A sub-agent's unsuccessful outcome as the error its parent reads. */
function subAgentError(outcome: Exclude<LoopOutcome, { kind: "succeeded" }>, spec: SubAgentSpec): ToolError {
  if (outcome.kind === "cancelled")
    return new ToolError("sub_agent_cancelled", "The sub-agent was cancelled.");
  if (outcome.kind === "suspended")
    return new ToolError("sub_agent_failed", "The sub-agent tried to wait for the user, which it cannot do.");
  if (outcome.code === "step_limit")
    return new ToolError(
      "sub_agent_step_limit",
      `The sub-agent used its ${spec.maxSteps} steps without finishing.`,
    );
  // The run's own budgets: the parent reads the same code and stops at its next guard.
  if (outcome.code === "token_limit" || outcome.code === "cost_limit")
    return new ToolError(outcome.code, outcome.message);
  if (outcome.code === "loop_detected")
    return new ToolError("sub_agent_failed", `The sub-agent looped: ${outcome.message}`);
  if (outcome.code === "too_many_failures")
    return new ToolError("sub_agent_failed", `The sub-agent kept failing: ${outcome.message}`);
  return new ToolError("sub_agent_failed", `The sub-agent failed: ${outcome.message}`);
}
