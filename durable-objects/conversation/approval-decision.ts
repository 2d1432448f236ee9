/**
 * A person's decision on a pending approval (`POST /v1/conversations/{id}/approvals/{approval_id}`):
 * checked (unknown 404, already decided 409, edited arguments validated like the model's 400),
 * applied, and the run resumed through the alarm — no request is held while it waits.
 */
import { z } from "zod";
import type { ApprovalDecisionBody, ApprovalResolved } from "../../schemas/approvals";
import type { ApprovalLedger } from "../engine/approvals/approval-ledger";
import type { Approvals } from "../engine/approvals/approvals";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import type { RunStore } from "../engine/store/run-store";
import type { ToolRegistry } from "../engine/tools/tool";

/** What deciding needs from the conversation. */
export interface DecisionDeps {
  approvals: Approvals;
  ledger: ApprovalLedger;
  runs: RunStore;
  /** The conversation's tools, to validate edited arguments. */
  tools(): Promise<ToolRegistry>;
  /** Makes the alarm drive the run again. */
  wake(): Promise<void>;
}

/** Applies a decision; the `approval_resolved` value, or why it was refused. */
export async function decideApproval(
  deps: DecisionDeps,
  approvalId: string,
  body: ApprovalDecisionBody,
): Promise<RpcResult<ApprovalResolved>> {
  const find = () => deps.approvals.pending().find((a) => a.approval_id === approvalId);
  let approval = find();
  if (!approval) return missing(deps, approvalId);
  let args: string | undefined;
  if (body.decision === "approve" && body.arguments) {
    const name = approval.tool_name;
    const tool = (await deps.tools()).get(name);
    if (!tool) return fail(409, "tool_unavailable", `${name} is no longer available to this conversation.`);
    const parsed = tool.parameters.safeParse(body.arguments);
    if (!parsed.success)
      return fail(
        400,
        "invalid_arguments",
        `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`,
      );
    args = JSON.stringify(body.arguments);
    // It may have timed out while the tools were built.
    approval = find();
    if (!approval) return missing(deps, approvalId);
  }
  const resolved = deps.approvals.resolve(approval, {
    decision: body.decision,
    reason: body.reason,
    arguments: args,
    by: "user",
  });
  const run = deps.runs.get(approval.run_id);
  const nothingLeft = deps.approvals.pending(approval.run_id).length === 0;
  if (run?.status === "waiting_for_approval" && (body.decision === "approve" || nothingLeft)) {
    deps.runs.setStatus(run.id, "running");
    await deps.wake();
  }
  return ok(resolved);
}

function missing(deps: DecisionDeps, approvalId: string): RpcResult<never> {
  const decided = deps.ledger.get(approvalId);
  if (decided)
    return fail(
      409,
      "already_decided",
      `Approval ${approvalId} was already decided (${decided.decision}${decided.reason ? `: ${decided.reason}` : ""}).`,
    );
  return fail(404, "not_found", `No approval ${approvalId} in this conversation.`);
}
