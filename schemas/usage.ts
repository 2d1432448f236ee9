/**
 * The workspace's usage report: runs, tokens and dollars per UTC day, per model and per
 * conversation or job, for a range of days. The dashboard's Usage page reads the same types.
 */
import { z } from "@hono/zod-openapi";

/** A UTC calendar day, `YYYY-MM-DD`. */
export const UsageDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a day like 2026-12-01")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "not a calendar day");

/** The range asked for: both ends included; default the last 30 days. */
export const UsageQuery = z.object({
  from: UsageDay.optional().openapi({ description: "First day (UTC), default 29 days before `to`." }),
  to: UsageDay.optional().openapi({ description: "Last day (UTC), default today." }),
  format: z
    .enum(["json", "csv"])
    .default("json")
    .openapi({ description: "`csv`: one row per day, model and source." }),
});

const totals = {
  runs: z.number().int().describe("Runs that ended."),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cached_input_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost_usd: z
    .number()
    .nullable()
    .describe(
      "Dollars of the priced tokens and of browser time (at BROWSER_HOUR_PRICE_USD); null when none of these tokens had a price and no browser time was used.",
    ),
  unpriced_tokens: z.number().int().describe("Tokens of models without a price (not in cost_usd)."),
  browser_seconds: z
    .number()
    .describe("Seconds of the workspace's browsers these conversations used (their cost is in cost_usd)."),
};

export const UsageTotals = z.object(totals).openapi("UsageTotals");
export type UsageTotals = z.infer<typeof UsageTotals>;

export const UsageReport = z
  .object({
    from: z.string(),
    to: z.string(),
    total: UsageTotals,
    days: z.array(z.object({ day: z.string(), ...totals })).describe("Every day of the range, oldest first."),
    models: z.array(z.object({ model: z.string(), ...totals })),
    sources: z
      .array(
        z.object({
          conversation_id: z.string(),
          job_id: z.string().nullable(),
          title: z.string().nullable().describe("The conversation's title; null when untitled or deleted."),
          ...totals,
        }),
      )
      .describe(
        "Per conversation (job runs carry their job id), most expensive first; at most 500, see sources_total.",
      ),
    sources_total: z.number().int().describe("How many conversations used tokens in the range."),
    jobs: z
      .array(z.object({ job_id: z.string(), ...totals }))
      .describe("Per job (all its runs' conversations), most expensive first; at most 500, see jobs_total."),
    jobs_total: z.number().int().describe("How many jobs used tokens in the range."),
  })
  .openapi("UsageReport");
export type UsageReport = z.infer<typeof UsageReport>;

/** One row of the ledger as a conversation reports it. */
export interface UsageEntry {
  at: number;
  conversation_id: string;
  job_id: string | null;
  model: string;
  runs: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Seconds of browser time (its cost is in cost_usd). */
  browser_seconds?: number;
  cost_usd: number | null;
}

/** The workspace's browser fleet now (GET /v1/usage/browsers): what it holds, what it waited, its limits. */
export const BrowserFleetReport = z
  .object({
    sessions: z.number().int().describe("Browsers alive now."),
    contexts: z.number().int().describe("Conversations with a browser context open now."),
    spares: z
      .number()
      .int()
      .describe("Browsers with a spare context ready now (taken by the next conversation's first call)."),
    waiting: z.number().int().describe("Browser calls waiting for a free browser now."),
    queued_calls: z.number().int().describe("Calls that had to wait, since the fleet last started."),
    launches: z.number().int().describe("Browsers the fleet has launched, ever."),
    peak_sessions: z.number().int().describe("Most browsers alive at once since the fleet last started."),
    browser_seconds_today: z.number().describe("Browser time used today (UTC), all conversations."),
    waits: z
      .object({
        count: z.number().int().describe("New browser contexts given since the fleet last started."),
        sampled: z.number().int().describe("How many of the newest are in the percentiles (at most 1,000)."),
        p50_ms: z.number().nullable(),
        p95_ms: z.number().nullable(),
      })
      .describe("Time a conversation waited for its browser context (queue, launch and creation)."),
    limits: z.object({
      max_sessions: z.number().int(),
      contexts_per_session: z.number().int(),
      launch_interval_ms: z.number().int(),
      daily_minutes: z.number(),
      queue_timeout_ms: z.number().int(),
      idle_ms: z.number().int(),
      hour_price_usd: z.number(),
    }),
  })
  .openapi("BrowserFleetReport");
export type BrowserFleetReport = z.infer<typeof BrowserFleetReport>;
