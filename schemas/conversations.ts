/** A conversation as the API shows it: its status, settings, details and list. */
import { z } from "@hono/zod-openapi";
import { ApprovalPolicy, PendingApproval } from "./approvals";
import { Channel, ConversationTitle } from "./create-conversation";
import { PendingQuestion, PendingTakeover, Task } from "./events";
import { ChatMessageView } from "./messages";
import { cursorPageOf } from "./page";
import { VerifyCitations } from "./research";
import { RunView } from "./runs";
import { Usage } from "./run-usage";

export const ConversationStatus = z.enum(["idle", "running", "waiting_for_user", "waiting_for_approval"]);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

export const Conversation = z
  .object({
    id: z.string(),
    object: z.literal("conversation"),
    created_at: z.number().describe("Epoch milliseconds."),
    title: z.string().nullable(),
    channel: Channel,
    status: ConversationStatus,
    last_activity_at: z.number().describe("Epoch milliseconds of the newest event (created_at before any)."),
    instructions: z.string().nullable(),
    model: z.string(),
    fallback_models: z
      .array(z.string())
      .nullable()
      .describe("Models a run moves on to when `model` keeps failing transiently; null: MODEL_FALLBACKS."),
    metadata: z.record(z.string(), z.string()),
    max_steps: z.number().int(),
    max_consecutive_failures: z
      .number()
      .int()
      .optional()
      .describe(
        "Model turns in a row whose tool calls all failed before a run fails `too_many_failures`; absent in conversations made before it (MAX_CONSECUTIVE_FAILURES applies).",
      ),
    context_window: z.number().int(),
    context_clear_at_tokens: z
      .number()
      .int()
      .optional()
      .describe(
        "Tokens past which old tool results are cleared (0: never); absent in conversations made before it.",
      ),
    context_keep_results: z
      .number()
      .int()
      .optional()
      .describe("Bulky tool results a clearing step keeps; absent in conversations made before it."),
    output_schema: z.record(z.string(), z.unknown()).nullable(),
    allowed_domains: z.array(z.string()).optional(),
    allowed_tools: z.array(z.string()).nullable(),
    approvals: ApprovalPolicy.optional(),
    browser_profile: z.string().nullable().describe("The browser profile the browser starts with."),
    max_cost_usd: z.number().nullable(),
    mcp_servers: z.array(z.string()).nullable().optional(),
    recording: z.boolean().describe("Whether its browser tabs are recorded."),
    verify_citations: VerifyCitations,
    max_revisions: z.number().int(),
    grader_model: z.string().nullable(),
  })
  .openapi("Conversation");
export type Conversation = z.infer<typeof Conversation>;

/** `GET /v1/conversations/{id}` shows the newest this many messages (`messages_total` counts all). */
export const DETAILS_MESSAGE_LIMIT = 1_000;

export const ConversationDetails = Conversation.extend({
  status: ConversationStatus,
  messages: z
    .array(ChatMessageView)
    .describe(
      `The newest ${DETAILS_MESSAGE_LIMIT} messages, oldest first; messages_total counts them all. Page through every one with GET /v1/conversations/{id}/messages.`,
    ),
  messages_total: z.number().int().describe("How many messages the conversation has in all."),
  tasks: z.array(Task),
  pending_question: PendingQuestion.nullable(),
  pending_takeover: PendingTakeover.nullable().describe(
    "A request_takeover the run waits for: use the tab's live view, then `POST …/takeover/{takeover_id}/done`.",
  ),
  pending_approvals: z.array(PendingApproval).describe("Tool calls waiting for a person's decision."),
  usage: Usage,
  current_run: RunView.nullable(),
  queued_runs: z.number().int(),
}).openapi("ConversationDetails");
export type ConversationDetails = z.infer<typeof ConversationDetails>;

export const UpdateConversation = z
  .object({ title: ConversationTitle })
  .strict()
  .openapi("UpdateConversation");
export type UpdateConversation = z.infer<typeof UpdateConversation>;

export const ConversationList = cursorPageOf(Conversation).openapi("ConversationList");
