/**
 * Sub-agents: an independent agent loop inside a parent run, with its own context (kept
 * under its own message scope, so it survives eviction like any run), its own step budget,
 * a tool set chosen by type, and its events forwarded to the parent as `sub_agent_event`.
 */

import { BROWSER_TOOL_NAMES } from "../custom-tools/reserved-names";
import { ToolError, ToolRegistry } from "../tools/tool";
import { buildContext } from "./context-window";
import { emptyRecord, StateHolder } from "./conversation-state";
import { ev } from "./event-builders";
import type { RunLedger, StepDeps } from "./loop-deps";
import { modelStep } from "./model-step";
import { toolStep } from "./tool-step";

/** What a sub-agent may use, by type. */
export const SUB_AGENT_TOOLS = {
  researcher: ["web_search", "web_fetch", "get_tab_content", "list_tabs", "opfs_read", "opfs_list"],
  page_operator: BROWSER_TOOL_NAMES,
} as const;

/** Tools a sub-agent never gets: no questions, no recursion, no ending the parent's run. */
export const SUB_AGENT_EXCLUDED = new Set(["ask_user", "request_takeover", "agent", "finish"]);

export type SubAgentType = "researcher" | "page_operator" | "general";

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
  const out = new ToolRegistry();
  for (const name of parent.names()) {
    if (SUB_AGENT_EXCLUDED.has(name) || (allowed && !allowed.has(name))) continue;
    out.add(parent.get(name)!);
  }
  return out;
}

function instructions(spec: SubAgentSpec): string {
  const role = {
    researcher: "You are a research sub-agent: find and read information; do not change anything.",
    page_operator: "You are a browser sub-agent: operate web pages with the tab and page tools.",
    general: "You are a sub-agent working on one sub-task.",
  }[spec.type];
  const tab = spec.tabId !== undefined ? ` Work in browser tab ${spec.tabId}, which was handed to you.` : "";
  return `${role}${tab} Work independently; when done, answer with the result of the sub-task only — it is returned to the agent that started you.`;
}

/** Runs (or resumes) a sub-agent to its final answer. */
export async function runSubAgent(parent: StepDeps, runId: string, spec: SubAgentSpec): Promise<string> {
  const label = spec.description ?? spec.prompt.slice(0, 40);
  const forward = (event: Parameters<StepDeps["emit"]>[1]) =>
    parent.emit(
      runId,
      ev.custom("sub_agent_event", { sub_agent_id: spec.id, label, agent_type: spec.type, event }),
    );
  const messages = parent.messages.scoped(`sub:${spec.id}`);
  let steps = messages.list().filter((m) => m.message.role === "assistant").length;
  const ledger: RunLedger = {
    addStep: (_id, usage) => {
      steps++;
      parent.ledger.addUsage(runId, usage);
    },
    addUsage: (_id, usage) => parent.ledger.addUsage(runId, usage),
    saveRetries: () => {},
    setStatus: () => {},
  };
  const deps: StepDeps = {
    ...parent,
    ledger,
    messages,
    state: new StateHolder(emptyRecord(), () => {}),
    tools: subAgentTools(parent.tools, spec.type),
    emit: (_id, event) => forward(event),
    summary: { get: () => null, set: () => {} },
    // Nothing inside a sub-agent can wait for a person: a call that needs approval is denied there.
    approvals: parent.approvals && {
      gate: (id, call, tool) => parent.approvals!.gate(id, call, tool, false),
      isHeld: () => false,
    },
  };
  if (messages.count() === 0) {
    messages.append(runId, { role: "user", content: spec.prompt });
    forward(ev.runStarted(parent.conversationId, spec.id));
  }
  const retries: Record<string, number> = {};
  for (;;) {
    const tools = await toolStep(deps, runId, retries);
    if (tools.kind === "loop_detected")
      throw new ToolError("sub_agent_failed", `The sub-agent looped: ${tools.message}`);
    if (steps >= spec.maxSteps) {
      throw new ToolError(
        "sub_agent_step_limit",
        `The sub-agent used its ${spec.maxSteps} steps without finishing.`,
      );
    }
    const overBudget = await parent.budget?.beforeTurn(runId);
    if (overBudget) throw new ToolError(overBudget.code, overBudget.message);
    const context = buildContext(messages.list(), null, instructions(spec));
    const turn = await modelStep(deps, runId, steps + 1, context);
    if (turn.toolCalls.length === 0) {
      forward(
        ev.runFinished(parent.conversationId, spec.id, turn.text, { totalTokens: turn.usage.total_tokens }),
      );
      return turn.text;
    }
  }
}
