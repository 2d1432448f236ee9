/**
 * The hold before a tool runs: the tool step asks {@link Approvals.gate} about every call; a call
 * the policy asks about is checkpointed as a pending approval (in the conversation's state) and
 * not executed, and a decision — a person's, a timeout's — settles it. A denial always answers the
 * model with a tool result, so the run goes on.
 */
import type { ApprovalResolved, ApprovalResolver, PendingApproval } from "../../../schemas/approvals";
import type { CirrusEvent } from "../../../schemas/events";
import { ev } from "../loop/event-builders";
import type { ChatMessage, ToolCall } from "../model/model-types";
import type { Tool } from "../tools/tool";
import { errorResult, type ToolOutcome } from "../tools/tool-runner";
import type { ApprovalLedger } from "./approval-ledger";
import { type ApprovalLevels, judge } from "./policy";
import { displayArguments, parseArguments } from "./redact";

/** The model's message when a person denies without giving a reason. */
export const DEFAULT_DENIAL = "A person denied this call.";

/** Where pending approvals are kept: the conversation's state record. */
export interface PendingApprovalsState {
  readonly pendingApprovals: PendingApproval[];
  setPendingApprovals(list: PendingApproval[]): void;
}

/** What the approvals need from the conversation. */
export interface ApprovalDeps {
  state: PendingApprovalsState;
  ledger: ApprovalLedger;
  messages: { append(runId: string, message: ChatMessage): unknown };
  emit(runId: string, event: CirrusEvent): void;
  /** The workspace's and the conversation's rules, and whether runs are unattended. */
  levels(): Omit<ApprovalLevels, "tool">;
  timeoutMs: number;
  /** Scrubs secret values the conversation knows of (the browser's typed secrets). */
  scrub?: <T>(value: T) => Promise<T>;
}

/** What the tool step does with one call. */
export type GateResult =
  | { kind: "run"; arguments: string }
  | { kind: "hold" }
  | { kind: "result"; outcome: ToolOutcome };

/** A decision to apply to a pending approval. */
export interface Resolution {
  decision: "approve" | "deny";
  reason?: string;
  /** Replacement arguments as JSON text (approve only). */
  arguments?: string;
  by: ApprovalResolver;
}

/** The tool result a denied call gives the model. */
export function deniedResult(message: string): ToolOutcome {
  return errorResult("denied", message);
}

function validArguments(tool: Tool, raw: string): boolean {
  const args = parseArguments(raw);
  return typeof args === "object" && args !== null && tool.parameters.safeParse(args).success;
}

/** Pending and decided approvals of one conversation. */
export class Approvals {
  constructor(private readonly deps: ApprovalDeps) {}

  /** Every pending approval, oldest first. */
  pending(runId?: string): PendingApproval[] {
    const all = this.deps.state.pendingApprovals;
    return runId ? all.filter((a) => a.run_id === runId) : all;
  }

  /** Whether a call of a run is waiting for a decision. */
  isHeld(runId: string, toolCallId: string): boolean {
    return this.pending(runId).some((a) => a.tool_call_id === toolCallId);
  }

  /** The earliest deadline of a pending approval, or null. */
  nextDeadline(): number | null {
    const times = this.pending().map((a) => a.expires_at);
    return times.length ? Math.min(...times) : null;
  }

  /**
   * Whether (and with which arguments) a call runs now. `canHold` is false where nothing can
   * wait for a person (inside a sub-agent): a call that needs approval is then denied.
   */
  async gate(runId: string, call: ToolCall, tool: Tool | undefined, canHold = true): Promise<GateResult> {
    const decided = this.deps.ledger.forCall(runId, call.id);
    if (decided?.decision === "approve")
      return { kind: "run", arguments: decided.arguments ?? call.function.arguments };
    if (decided) return { kind: "result", outcome: deniedResult(decided.reason ?? DEFAULT_DENIAL) };
    if (this.isHeld(runId, call.id)) return { kind: "hold" };
    // Unknown tools and invalid arguments are answered by the runner; nobody approves a broken call.
    if (!tool || !validArguments(tool, call.function.arguments))
      return { kind: "run", arguments: call.function.arguments };
    const verdict = judge(call.function.name, { ...this.deps.levels(), tool: tool.approval });
    if (verdict.rule === "allow") return { kind: "run", arguments: call.function.arguments };
    if (verdict.rule === "deny" && !verdict.unattended)
      return { kind: "result", outcome: deniedResult(verdict.reason) };
    const approval = await this.request(runId, call, verdict.rule === "ask" ? verdict.reason : undefined);
    if (verdict.rule === "deny") return this.settleAtOnce(approval, "unattended", "unattended");
    if (!canHold) {
      const why = `${call.function.name} needs a person's approval, which a sub-agent cannot wait for; leave this call to the main agent.`;
      return this.settleAtOnce(approval, why, "unattended");
    }
    this.deps.state.setPendingApprovals([...this.deps.state.pendingApprovals, approval]);
    this.deps.emit(runId, ev.custom("approval_requested", approval));
    return { kind: "hold" };
  }

  /** Settles a pending approval: records the decision, answers the model on a denial, tells clients. */
  resolve(approval: PendingApproval, r: Resolution): ApprovalResolved {
    const now = Date.now();
    const reason = r.reason ?? (r.decision === "deny" ? DEFAULT_DENIAL : undefined);
    this.deps.ledger.record({
      approval_id: approval.approval_id,
      run_id: approval.run_id,
      tool_call_id: approval.tool_call_id,
      tool_name: approval.tool_name,
      decision: r.decision,
      reason: reason ?? null,
      arguments: r.decision === "approve" ? (r.arguments ?? null) : null,
      resolved_by: r.by,
      resolved_at: now,
    });
    this.deps.state.setPendingApprovals(
      this.deps.state.pendingApprovals.filter((a) => a.approval_id !== approval.approval_id),
    );
    if (r.decision === "deny") {
      const outcome = deniedResult(reason!);
      if (outcome.kind === "result") {
        this.deps.messages.append(approval.run_id, {
          role: "tool",
          tool_call_id: approval.tool_call_id,
          content: outcome.content,
        });
        this.deps.emit(approval.run_id, ev.toolResult(approval.tool_call_id, outcome.content, true));
      }
    }
    const resolved: ApprovalResolved = {
      approval_id: approval.approval_id,
      tool_call_id: approval.tool_call_id,
      tool_name: approval.tool_name,
      decision: r.decision,
      ...(reason ? { reason } : {}),
      arguments_edited: r.decision === "approve" && r.arguments !== undefined,
      resolved_by: r.by,
      resolved_at: now,
    };
    this.deps.emit(approval.run_id, ev.custom("approval_resolved", resolved));
    return resolved;
  }

  /** Denies every approval whose deadline has passed (reason `timeout`); how many there were. */
  expire(now = Date.now()): number {
    const due = this.pending().filter((a) => a.expires_at <= now);
    for (const a of due) this.resolve(a, { decision: "deny", reason: "timeout", by: "timeout" });
    return due.length;
  }

  /** Denies the approvals of a run that ends without them (cancelled, failed), so no call is left unanswered. */
  dropRun(runId: string, reason: string): void {
    for (const a of this.pending(runId)) this.resolve(a, { decision: "deny", reason, by: "cancelled" });
  }

  private async request(runId: string, call: ToolCall, reason: string | undefined): Promise<PendingApproval> {
    const now = Date.now();
    return {
      approval_id: `appr_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`,
      run_id: runId,
      tool_call_id: call.id,
      tool_name: call.function.name,
      arguments: await displayArguments(call.function.arguments, this.deps.scrub),
      ...(reason ? { reason } : {}),
      requested_at: now,
      expires_at: now + this.deps.timeoutMs,
    };
  }

  /** Asks and denies in one go where nobody can answer (unattended runs, sub-agents). */
  private settleAtOnce(approval: PendingApproval, reason: string, by: ApprovalResolver): GateResult {
    this.deps.emit(approval.run_id, ev.custom("approval_requested", approval));
    this.deps.ledger.record({
      approval_id: approval.approval_id,
      run_id: approval.run_id,
      tool_call_id: approval.tool_call_id,
      tool_name: approval.tool_name,
      decision: "deny",
      reason,
      arguments: null,
      resolved_by: by,
      resolved_at: Date.now(),
    });
    const resolved: ApprovalResolved = {
      approval_id: approval.approval_id,
      tool_call_id: approval.tool_call_id,
      tool_name: approval.tool_name,
      decision: "deny",
      reason,
      arguments_edited: false,
      resolved_by: by,
      resolved_at: Date.now(),
    };
    this.deps.emit(approval.run_id, ev.custom("approval_resolved", resolved));
    return { kind: "result", outcome: deniedResult(reason) };
  }
}
