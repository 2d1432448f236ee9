/**
 * Creating a conversation: `POST /v1/conversations`, its settings and the fields a conversation
 * keeps from them (title, channel, metadata, model).
 */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";
import { ApprovalPolicy } from "./approvals";
import { ProfileName } from "./browser-api";
import { BudgetUsd } from "./cost";
import { McpServerNames } from "./mcp";
import { TOOL_NAME_PATTERN } from "./patterns";
import { RecordingSetting } from "./recordings";
import { GraderModel, MaxRevisions, VerifyCitations } from "./research";
import { AllowedDomains } from "./settings";

export const Metadata = z
  .record(z.string(), z.string().max(1000))
  .refine((m) => Object.keys(m).length <= 32, "at most 32 metadata keys")
  .describe("Up to 32 string key/value pairs of your own.");

export const ModelName = oneLine(200).describe(
  "Model name for the configured endpoint, overriding OPENAI_MODEL.",
);

/** The most fallback models a conversation or job may name. */
export const MAX_FALLBACK_MODELS = 3;

export const FallbackModels = z
  .array(oneLine(200))
  .max(MAX_FALLBACK_MODELS)
  .describe(
    `Up to ${MAX_FALLBACK_MODELS} models, in order, that a model turn moves on to when the model in use has used up its retries on a 429, a 5xx, a timeout or a lost connection (never on a 4xx such as a bad request or a refused key): same endpoint, same request. The first that answers serves the rest of the run; the next run starts at \`model\` again. Default MODEL_FALLBACKS; [] for none.`,
  );

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

export const ConversationTitle = oneLine(TITLE_MAX).describe(
  `A title of up to ${TITLE_MAX} characters; by default the start of the first user message.`,
);

/** The limit of failing turns in a row (durable-objects/engine/loop/failure-streak.ts). */
export const MaxConsecutiveFailures = z
  .number()
  .int()
  .min(1)
  .max(500)
  .describe(
    "Model turns in a row in which every tool call failed before a run fails with `too_many_failures` (default MAX_CONSECUTIVE_FAILURES, 5). Denials, cancellations and the repeat guard's refusals do not count.",
  );

export const CreateConversation = z
  .object({
    title: ConversationTitle.optional(),
    channel: z
      .enum(["api", "dashboard"])
      .optional()
      .describe("Where the request comes from: `api` (default) or `dashboard`."),
    instructions: z.string().max(100_000).optional().describe("System instructions for this conversation."),
    model: ModelName.optional(),
    fallback_models: FallbackModels.optional(),
    metadata: Metadata.optional(),
    max_steps: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe("Model turns allowed per run (default MAX_STEPS, 50)."),
    max_consecutive_failures: MaxConsecutiveFailures.optional(),
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
