/**
 * Scheduled jobs: one zod schema per concept, shared by request validation, the job object's
 * answers and the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";
import { FallbackModels, MaxConsecutiveFailures, ModelName } from "./create-conversation";
import { Usage } from "./run-usage";
import { ApprovalPolicy } from "./approvals";
import { ProfileName } from "./browser-api";
import { BudgetUsd } from "./cost";
import { McpServerNames } from "./mcp";
import { cursorPageOf } from "./page";
import { GraderModel, MAX_MEMORY_RUNS, MaxRevisions, SuccessCriteria, VerifyCitations } from "./research";

const fields = {
  name: oneLine(200).describe("A name for people; its slug fills `{job}` in output_path."),
  prompt: z.string().min(1).max(100_000).describe("What the agent is asked to do on every run."),
  schedule: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "5-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 7 * * 1-5`; `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly` are accepted too.",
    ),
  timezone: z
    .string()
    .min(1)
    .max(100)
    .describe("IANA time zone the schedule and `{date}`/`{time}` are read in (default UTC)."),
  instructions: z.string().max(100_000).describe("System instructions for the job's conversations."),
  model: ModelName,
  fallback_models: FallbackModels,
  output_path: z
    .string()
    .min(1)
    .max(500)
    .describe(
      "Where each run's result is saved in the workspace files; placeholders `{job}`, `{date}` (YYYY-MM-DD), `{time}` (HHmm, both in the job's time zone at the scheduled time) and `{run}` (run number). Default `reports/{job}/{date}-{time}.md` (`.json` with an output_schema).",
    ),
  output_schema: z
    .record(z.string(), z.unknown())
    .describe("JSON Schema the result must match; the result is then saved as JSON."),
  webhook_url: z
    .string()
    .max(2000)
    .describe("Public http(s) URL that receives a signed JSON summary when a run ends."),
  max_steps: z.number().int().min(1).max(500).describe("Model turns allowed per run (default MAX_STEPS)."),
  max_consecutive_failures: MaxConsecutiveFailures,
  max_runtime_seconds: z
    .number()
    .int()
    .min(1)
    .max(86_400)
    .describe("Wall time allowed per run (default 1800); an overrunning run is stopped as timed_out."),
  max_tokens: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .describe("Tokens (input + output) allowed per run; the run stops when it has used them."),
  max_cost_usd: BudgetUsd.describe(
    "Dollars allowed per run; a run that reaches it stops before its next model turn (status failed, error.code cost_limit).",
  ),
  enabled: z.boolean().describe("Whether the schedule is active (runs can still be started by hand)."),
  approvals: ApprovalPolicy.describe(
    'The job\'s approval rules. Runs are unattended: a call that needs approval is denied with reason `unattended` unless these rules say "allow" for the tool; "deny" from any level still wins.',
  ),
  browser_profile: ProfileName.describe(
    "A browser profile of the workspace that each run's browser starts with (signed-in sites); like any conversation, a run saves back to it when its browser closes.",
  ),
  mcp_servers: McpServerNames,
  recording: z
    .boolean()
    .describe(
      "Whether each run records its browser tabs (rrweb, inputs masked); default: the workspace's agent settings.",
    ),
  verify_citations: VerifyCitations.describe(
    "Check each run's citations against the pages it read: `off`, `flag`, or `revise` (default: send the run back to read the page or drop the claim, up to max_revisions times).",
  ),
  max_revisions: MaxRevisions,
  memory_runs: z
    .number()
    .int()
    .min(0)
    .max(MAX_MEMORY_RUNS)
    .describe(
      "How many earlier runs' reports (their paths and the URLs they cited) each run is told about in its first message, so it can say what is new; default 3, 0 turns it off.",
    ),
  success_criteria: SuccessCriteria,
  grader_model: GraderModel,
  fail_on_ungraded: z
    .boolean()
    .describe(
      "Mark a run `failed` (error.code `criteria_failed`) when its last grading did not pass every criterion; by default it stays `succeeded` with the failing grades recorded.",
    ),
};

export const CreateJob = z
  .strictObject({
    name: fields.name,
    prompt: fields.prompt,
    schedule: fields.schedule,
    timezone: fields.timezone.default("UTC"),
    instructions: fields.instructions.optional(),
    model: fields.model.optional(),
    fallback_models: fields.fallback_models.optional(),
    output_path: fields.output_path.optional(),
    output_schema: fields.output_schema.optional(),
    webhook_url: fields.webhook_url.optional(),
    max_steps: fields.max_steps.optional(),
    max_consecutive_failures: fields.max_consecutive_failures.optional(),
    max_runtime_seconds: fields.max_runtime_seconds.optional(),
    max_tokens: fields.max_tokens.optional(),
    max_cost_usd: fields.max_cost_usd.optional(),
    enabled: fields.enabled.default(true),
    approvals: fields.approvals.optional(),
    browser_profile: fields.browser_profile.optional(),
    mcp_servers: fields.mcp_servers.optional(),
    recording: fields.recording.optional(),
    verify_citations: fields.verify_citations.optional(),
    max_revisions: fields.max_revisions.optional(),
    memory_runs: fields.memory_runs.optional(),
    success_criteria: fields.success_criteria.optional(),
    grader_model: fields.grader_model.optional(),
    fail_on_ungraded: fields.fail_on_ungraded.optional(),
  })
  .openapi("CreateJob");
export type CreateJob = z.infer<typeof CreateJob>;

/** A partial update; `null` clears an optional setting. */
export const UpdateJob = z
  .strictObject({
    name: fields.name.optional(),
    prompt: fields.prompt.optional(),
    schedule: fields.schedule.optional(),
    timezone: fields.timezone.optional(),
    instructions: fields.instructions.nullable().optional(),
    model: fields.model.nullable().optional(),
    fallback_models: fields.fallback_models.nullable().optional(),
    output_path: fields.output_path.nullable().optional(),
    output_schema: fields.output_schema.nullable().optional(),
    webhook_url: fields.webhook_url.nullable().optional(),
    max_steps: fields.max_steps.nullable().optional(),
    max_consecutive_failures: fields.max_consecutive_failures.nullable().optional(),
    max_runtime_seconds: fields.max_runtime_seconds.optional(),
    max_tokens: fields.max_tokens.nullable().optional(),
    max_cost_usd: fields.max_cost_usd.nullable().optional(),
    enabled: fields.enabled.optional(),
    approvals: fields.approvals.nullable().optional(),
    browser_profile: fields.browser_profile.nullable().optional(),
    mcp_servers: fields.mcp_servers.nullable().optional(),
    recording: fields.recording.nullable().optional(),
    verify_citations: fields.verify_citations.optional(),
    max_revisions: fields.max_revisions.optional(),
    memory_runs: fields.memory_runs.optional(),
    success_criteria: fields.success_criteria.nullable().optional(),
    grader_model: fields.grader_model.nullable().optional(),
    fail_on_ungraded: fields.fail_on_ungraded.optional(),
  })
  .openapi("UpdateJob");
export type UpdateJob = z.infer<typeof UpdateJob>;

/** A job's settings as stored (defaults filled in). */
export const JobSettings = z.object({
  name: fields.name,
  prompt: fields.prompt,
  schedule: fields.schedule,
  timezone: fields.timezone,
  instructions: fields.instructions.nullable(),
  model: fields.model.nullable(),
  /** Absent in jobs stored before fallbacks: MODEL_FALLBACKS. */
  fallback_models: fields.fallback_models.nullable().optional(),
  output_path: fields.output_path,
  output_schema: fields.output_schema.nullable(),
  webhook_url: fields.webhook_url.nullable(),
  max_steps: fields.max_steps.nullable(),
  /** Absent in jobs stored before it: the default. */
  max_consecutive_failures: fields.max_consecutive_failures.nullable().optional(),
  max_runtime_seconds: fields.max_runtime_seconds,
  max_tokens: fields.max_tokens.nullable(),
  max_cost_usd: fields.max_cost_usd.nullable(),
  enabled: fields.enabled,
  approvals: fields.approvals.nullable(),
  browser_profile: fields.browser_profile.nullable(),
  /** Absent in jobs stored before MCP: all servers. */
  mcp_servers: fields.mcp_servers.nullable().optional(),
  /** Absent in jobs stored before recordings: the workspace's default. */
  recording: fields.recording.nullable().optional(),
  /** The research settings; absent in jobs stored before them: the defaults. */
  verify_citations: fields.verify_citations.optional(),
  max_revisions: fields.max_revisions.optional(),
  memory_runs: fields.memory_runs.optional(),
  success_criteria: fields.success_criteria.nullable().optional(),
  grader_model: fields.grader_model.nullable().optional(),
  fail_on_ungraded: fields.fail_on_ungraded.optional(),
});
export type JobSettings = z.infer<typeof JobSettings>;

export const Job = JobSettings.extend({
  fallback_models: fields.fallback_models.nullable(),
  verify_citations: fields.verify_citations,
  max_revisions: fields.max_revisions,
  memory_runs: fields.memory_runs,
  success_criteria: fields.success_criteria.nullable(),
  grader_model: fields.grader_model.nullable(),
  fail_on_ungraded: fields.fail_on_ungraded,
  id: z.string(),
  object: z.literal("job"),
  created_at: z.number().describe("Epoch milliseconds."),
  updated_at: z.number().describe("Epoch milliseconds."),
  next_run_at: z.number().nullable().describe("Next scheduled occurrence (epoch ms); null when disabled."),
  webhook_secret: z
    .string()
    .optional()
    .describe(
      'Signs webhook deliveries: `X-Cirrus-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. Shown on create and on GET of the job, not in lists.',
    ),
}).openapi("Job");
export type Job = z.infer<typeof Job>;

export const JobList = cursorPageOf(Job).openapi("JobList");

export const JobRunStatus = z.enum(["running", "succeeded", "failed", "timed_out", "skipped"]);
export type JobRunStatus = z.infer<typeof JobRunStatus>;

export const JobRunTrigger = z
  .enum(["schedule", "catch_up", "manual"])
  .describe("`catch_up`: the one run standing for occurrences missed while nothing could run.");
export type JobRunTrigger = z.infer<typeof JobRunTrigger>;

export const WebhookDelivery = z
  .object({
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status: z.number().int().nullable().describe("HTTP status of the last attempt."),
    last_error: z.string().nullable(),
    next_attempt_at: z.number().nullable(),
    delivered_at: z.number().nullable(),
  })
  .openapi("WebhookDelivery");
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const JobRun = z
  .object({
    id: z.string(),
    object: z.literal("job_run"),
    job_id: z.string(),
    number: z.number().int().describe("1 for the job's first run; fills `{run}`."),
    trigger: JobRunTrigger,
    scheduled_at: z
      .number()
      .describe("The occurrence this run is for (epoch ms); start time for manual runs."),
    missed_occurrences: z.number().int().describe("For catch_up runs: how many occurrences it stands for."),
    started_at: z.number().nullable(),
    ended_at: z.number().nullable(),
    status: JobRunStatus,
    conversation_id: z.string().nullable().describe("The run's conversation: its events stay readable."),
    result_path: z.string().nullable(),
    tokens: Usage.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    webhook: WebhookDelivery.nullable(),
    citations_unverified: z
      .number()
      .int()
      .nullable()
      .describe("The result's citations never read plus quotations not found; null when not checked."),
    grades_passed: z
      .number()
      .int()
      .nullable()
      .describe("Success criteria the last grading passed; null when none."),
    grades_total: z.number().int().nullable().describe("Success criteria graded; null when none."),
  })
  .openapi("JobRun");
export type JobRun = z.infer<typeof JobRun>;

export const JobRunList = cursorPageOf(JobRun).openapi("JobRunList");
