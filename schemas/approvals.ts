/**
 * Tool approvals: the policy (tool name or glob → ask / allow / deny) that workspaces,
 * conversations, jobs and registered tools carry, a pending approval as state and events show
 * it, and the decision a person sends. Shared by the worker, the objects and `web/`.
 */
import { z } from "@hono/zod-openapi";

/** What happens to a call of a tool: wait for a person, run it, or never run it (the model is told). */
export const ApprovalRule = z.enum(["ask", "allow", "deny"]).openapi({
  description:
    '`"ask"` waits for a person\'s decision, `"allow"` runs the call (the default), `"deny"` never runs it and tells the model.',
  example: "ask",
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;

/** A tool name or a glob over tool names: `*` any run of characters, `?` one character. */
export const ToolPattern = z
  .string()
  .regex(
    /^[A-Za-z0-9_*?-]{1,128}$/,
    "a tool name or a glob such as shop__* (letters, digits, _, -, * and ?)",
  );

/** Most entries one approvals map may hold. */
export const MAX_APPROVAL_RULES = 200;

/** A map from tool names or globs to rules; the most specific entry that matches a tool wins. */
export const ApprovalPolicy = z
  .record(ToolPattern, ApprovalRule)
  .refine((m) => Object.keys(m).length <= MAX_APPROVAL_RULES, `at most ${MAX_APPROVAL_RULES} approval rules`)
  .openapi("ApprovalPolicy", {
    description:
      'Tool name or glob → "ask" | "allow" | "deny". Within one map an exact name beats a glob and the glob with more literal characters beats a wider one; where two levels (workspace, conversation or job, the tool\'s own default) disagree, the stricter rule wins. Globs never match finish, ask_user or the task-list tools (name them exactly to govern them).',
    example: { opfs_delete: "ask", "shop__*": "ask", web_search: "allow" },
  });
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;

/** A call waiting for a person's decision, as `pending_approvals` and `approval_requested` show it. */
export const PendingApproval = z
  .object({
    approval_id: z
      .string()
      .describe("Id to decide it with: POST /v1/conversations/{id}/approvals/{approval_id}."),
    run_id: z.string().describe("The run the call belongs to."),
    tool_call_id: z.string().describe("The model's tool call this approval holds."),
    tool_name: z.string(),
    arguments: z.unknown().describe("The call's arguments (secret values redacted)."),
    reason: z.string().optional().describe("Why the call needs approval: the rule that asked."),
    requested_at: z.number().describe("Epoch milliseconds."),
    expires_at: z
      .number()
      .describe("Epoch milliseconds; after this the call is denied with reason `timeout`."),
  })
  .openapi("PendingApproval");
export type PendingApproval = z.infer<typeof PendingApproval>;

/** `POST /v1/conversations/{id}/approvals/{approval_id}` body. */
export const ApprovalDecisionBody = z
  .object({
    decision: z
      .enum(["approve", "deny"])
      .describe("`approve` runs the call; `deny` tells the model it was denied."),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .describe("Told to the model as the denial's message (deny), recorded with the decision (approve)."),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("With approve: replaces the call's arguments, validated like the model's."),
  })
  .strict()
  .refine((b) => b.decision === "approve" || b.arguments === undefined, {
    message: "arguments can only be given with decision approve",
    path: ["arguments"],
  })
  .openapi("ApprovalDecision");
export type ApprovalDecisionBody = z.infer<typeof ApprovalDecisionBody>;

/** Who or what settled an approval. */
export const ApprovalResolver = z.enum(["user", "timeout", "unattended", "cancelled"]);
export type ApprovalResolver = z.infer<typeof ApprovalResolver>;

/** The value of the `approval_resolved` CUSTOM event, and the decision route's answer. */
export const ApprovalResolved = z
  .object({
    approval_id: z.string(),
    tool_call_id: z.string(),
    tool_name: z.string(),
    decision: z.enum(["approve", "deny"]),
    reason: z.string().optional(),
    arguments_edited: z.boolean().describe("Whether the person replaced the call's arguments."),
    resolved_by: ApprovalResolver,
    resolved_at: z.number().describe("Epoch milliseconds."),
  })
  .openapi("ApprovalResolved");
export type ApprovalResolved = z.infer<typeof ApprovalResolved>;
