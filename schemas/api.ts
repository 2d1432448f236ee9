/**
 * The HTTP API's schemas: one zod schema per concept, used to validate requests, type the
 * Durable Objects' answers and generate the OpenAPI document.
 */
import { RecordingSetting } from "./recordings";
import { z } from "@hono/zod-openapi";
import { ApprovalPolicy, PendingApproval } from "./approvals";
import { ProfileName } from "./browser-api";
import { BudgetUsd, CostUsd } from "./cost";
import { PendingQuestion, PendingTakeover, Task } from "./events";
import { McpServerNames } from "./mcp";
import { cursorPageOf } from "./page";
import { TOOL_NAME_PATTERN } from "./patterns";
import { GraderModel, MaxRevisions, MessageReviewOptions, RunReview, VerifyCitations } from "./research";
import { AllowedDomains } from "./settings";

/** The one error shape of every route. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().describe("Stable machine-readable code, e.g. `not_found`, `invalid_request`."),
      message: z.string().describe("What went wrong, for people."),
    }),
  })
  .openapi("Error");
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Metadata = z
  .record(z.string(), z.string().max(1000))
  .refine((m) => Object.keys(m).length <= 32, "at most 32 metadata keys")
  .describe("Up to 32 string key/value pairs of your own.");

export const ModelName = z
  .string()
  .min(1)
  .max(200)
  .describe("Model name for the configured endpoint, overriding OPENAI_MODEL.");

/** Where a conversation was started from. */
export const Channel = z
  .enum(["api", "dashboard", "widget", "job", "agui", "mcp"])
  .describe(
    "Where the conversation was started: the API, the dashboard, the widget, a scheduled job, AG-UI or MCP.",
  );
export type Channel = z.infer<typeof Channel>;

/** The longest title a conversation keeps; a default title is the start of the first message. */
export const TITLE_MAX = 200;
export const DEFAULT_TITLE_CHARS = 80;

export const ConversationTitle = z
  .string()
  .trim()
  .min(1, "title must not be empty")
  .max(TITLE_MAX)
  .describe(`A title of up to ${TITLE_MAX} characters; by default the start of the first user message.`);

export const CreateConversation = z
  .object({
    title: ConversationTitle.optional(),
    channel: z
      .enum(["api", "dashboard"])
      .optional()
      .describe("Where the request comes from: `api` (default) or `dashboard`."),
    instructions: z.string().max(100_000).optional().describe("System instructions for this conversation."),
    model: ModelName.optional(),
    metadata: Metadata.optional(),
    max_steps: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe("Model turns allowed per run (default MAX_STEPS, 50)."),
    context_window: z
      .number()
      .int()
      .min(1000)
      .max(10_000_000)
      .optional()
      .describe("The model's context window in tokens; older turns are summarised when a run nears it."),
    context_clear_at_tokens: z
      .number()
      .int()
      .min(0)
      .max(10_000_000)
      .optional()
      .describe(
        "Clear old bulky tool results from the context once a request would pass this many tokens; each is saved whole in the workspace (default CONTEXT_CLEAR_AT_TOKENS, 6000; 0: never).",
      ),
    context_keep_results: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(
        "How many of the newest bulky tool results a clearing step keeps (default CONTEXT_KEEP_RESULTS, 1).",
      ),
    output_schema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "JSON Schema the result of every run must match; `finish` validates it and asks the model to fix mismatches.",
      ),
    allowed_domains: AllowedDomains.optional().describe(
      "Hostnames the browser and web_fetch may visit, subdomains included; absent = any. Inside the workspace's allowed_domains when it sets them.",
    ),
    allowed_tools: z
      .array(z.string().regex(TOOL_NAME_PATTERN))
      .max(200)
      .optional()
      .describe(
        "Tool names this conversation may use (`finish` is always there); default: the workspace's agent settings, else all.",
      ),
    approvals: ApprovalPolicy.optional().describe(
      "This conversation's approval rules; combined with the workspace's (and each tool's own default), the stricter wins.",
    ),
    browser_profile: ProfileName.optional().describe(
      "A browser profile of the workspace (`POST /v1/browser/profiles`): the browser starts with its cookies and local storage, and saves back to it.",
    ),
    max_cost_usd: BudgetUsd.optional().describe(
      "Dollars all runs of this conversation together may spend; a run that reaches it stops before its next model turn with RUN_ERROR `cost_limit`.",
    ),
    mcp_servers: McpServerNames.optional(),
    recording: RecordingSetting.optional().describe(
      "Record every browser tab as rrweb events (inputs masked), listed at /v1/conversations/{id}/recordings; default: the workspace's agent settings, else false.",
    ),
    verify_citations: VerifyCitations.optional().describe(
      "Check every run's citations against the pages it read: `off`, `flag` (default: record what is unverified) or `revise` (also send the run back to fix them).",
    ),
    max_revisions: MaxRevisions.optional(),
    grader_model: GraderModel.optional(),
  })
  .openapi("CreateConversation");
export type CreateConversation = z.infer<typeof CreateConversation>;

export const ConversationStatus = z.enum(["idle", "running", "waiting_for_user", "waiting_for_approval"]);
export type ConversationStatus = z.infer<typeof ConversationStatus>;

export const Usage = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
    cached_input_tokens: z.number().int().optional().describe("Input tokens served from the prompt cache."),
    browser_seconds: z
      .number()
      .optional()
      .describe(
        "Seconds of browser time (this conversation's share of its workspace's browsers), priced into cost_usd at BROWSER_HOUR_PRICE_USD.",
      ),
    cost_usd: CostUsd,
  })
  .openapi("Usage");
export type Usage = z.infer<typeof Usage>;

/** The kinds of sub-agent the `agent` tool starts. */
export const SubAgentType = z.enum(["researcher", "page_operator", "general"]);
export type SubAgentType = z.infer<typeof SubAgentType>;

/** One sub-agent's line in its run's usage: its model turns and tokens (already in the run's totals). */
export const SubAgentUsage = Usage.extend({
  id: z.string().describe("The sub-agent's id: the id of the agent tool call that started it."),
  type: SubAgentType,
  label: z.string().describe("The sub-agent's description, or the start of its prompt."),
  steps: z.number().int().describe("Model turns the sub-agent took."),
}).openapi("SubAgentUsage");
export type SubAgentUsage = z.infer<typeof SubAgentUsage>;

/** A run's token usage: the totals (sub-agents included) and one line per sub-agent. */
export const RunUsage = Usage.extend({
  sub_agents: z
    .array(SubAgentUsage)
    .optional()
    .describe("One line per sub-agent the run started; their tokens are included in the totals above."),
}).openapi("RunUsage");
export type RunUsage = z.infer<typeof RunUsage>;

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
    metadata: z.record(z.string(), z.string()),
    max_steps: z.number().int(),
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

export const ChatMessageView = z
  .object({
    id: z.number().int(),
    run_id: z.string().nullable(),
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string().nullable(),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
    tool_call_id: z.string().optional(),
    created_at: z.number(),
  })
  .openapi("Message");
export type ChatMessageView = z.infer<typeof ChatMessageView>;

export const RunStatus = z.enum([
  "queued",
  "running",
  "waiting_for_user",
  "waiting_for_approval",
  "succeeded",
  "failed",
  "cancelled",
]);

export const RunView = z
  .object({
    id: z.string(),
    status: RunStatus,
    created_at: z.number(),
    started_at: z.number().nullable(),
    finished_at: z.number().nullable(),
    steps: z.number().int(),
    usage: RunUsage,
    output: z.unknown(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .openapi("Run");
export type RunView = z.infer<typeof RunView>;

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

export const SendMessage = z
  .object({
    content: z.string().min(1).max(500_000).describe("The user's message."),
    stream: z
      .boolean()
      .default(true)
      .describe("Stream this run's events as SSE (default) or wait for the result."),
    idempotency_key: z.string().min(1).max(200).optional().describe("The same key twice starts one run."),
    steer: z
      .boolean()
      .default(false)
      .describe(
        "Join the active run before its next model turn instead of queueing a new run; with no active run, start one as usual.",
      ),
  })
  .extend(MessageReviewOptions.shape)
  .openapi("SendMessage");

export const RunResult = z
  .object({
    run_id: z.string(),
    status: RunStatus,
    output: z.unknown().describe("The run's result: the final answer (or what finish delivered)."),
    usage: RunUsage,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .extend(RunReview.shape)
  .openapi("RunResult");
export type RunResult = z.infer<typeof RunResult>;

export const AnswerBody = z
  .object({
    question_id: z.string().min(1),
    answer: z
      .union([z.string().max(100_000), z.array(z.string().max(1000)).max(50)])
      .describe("Free text, one of the options, or (with `multiple`) a list of options."),
  })
  .openapi("Answer");
export type AnswerBody = z.infer<typeof AnswerBody>;

export const ToolCallBody = z
  .object({ arguments: z.record(z.string(), z.unknown()).default({}).describe("The tool's arguments.") })
  .openapi("ToolCall");

export const ToolCallResult = z.object({ tool: z.string(), result: z.unknown() }).openapi("ToolCallResult");

export const CreateWorkspace = z.object({ name: z.string().min(1).max(200) }).openapi("CreateWorkspace");
export const Workspace = z
  .object({ id: z.string(), name: z.string(), created_at: z.number() })
  .openapi("Workspace");
/** An allowed origin of a publishable key: `scheme://host[:port]`, http or https. */
export const AllowedOrigin = z
  .string()
  .max(300)
  .refine((o) => {
    try {
      const u = new URL(o);
      return (u.protocol === "https:" || u.protocol === "http:") && u.origin === o;
    } catch {
      return false;
    }
  }, "an origin like https://example.com (scheme, host and port only)")
  .describe("An origin the widget may run on, e.g. `https://shop.example.com`.");

export const KeyType = z
  .enum(["secret", "publishable"])
  .describe("`secret` uses the whole API; `publishable` (`pk_…`) only the widget, from its allowed origins.");

export const CreateKey = z
  .object({
    name: z.string().min(1).max(200),
    type: KeyType.default("secret"),
    allowed_origins: z.array(AllowedOrigin).max(50).default([]).describe("Required for publishable keys."),
  })
  .refine((k) => k.type !== "publishable" || k.allowed_origins.length > 0, {
    message: "a publishable key needs at least one allowed origin",
    path: ["allowed_origins"],
  })
  .openapi("CreateKey");
export type CreateKey = z.infer<typeof CreateKey>;

export const UpdateKey = z
  .object({
    name: z.string().min(1).max(200).optional(),
    allowed_origins: z.array(AllowedOrigin).max(50).optional(),
  })
  .openapi("UpdateKey");

export const KeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    type: KeyType,
    prefix: z.string(),
    allowed_origins: z.array(z.string()),
    created_at: z.number(),
  })
  .openapi("Key");
export const CreatedKey = KeyInfo.extend({
  key: z.string().describe("The key. Shown once; only its hash is stored."),
}).openapi("CreatedKey");

export const WidgetSession = z
  .object({
    conversation_id: z.string(),
    visitor_token: z
      .string()
      .describe("Send as `X-Visitor-Token` with the publishable key; unlocks this conversation only."),
  })
  .openapi("WidgetSession");
