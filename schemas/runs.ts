/** A run of a conversation: its status, how it is shown and the result it ends with. */
import { z } from "@hono/zod-openapi";
import { RunReview } from "./research";
import { RunUsage } from "./run-usage";

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
