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
    .describe("Dollars of the priced tokens; null when none of these tokens had a price."),
  unpriced_tokens: z.number().int().describe("Tokens of models without a price (not in cost_usd)."),
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
