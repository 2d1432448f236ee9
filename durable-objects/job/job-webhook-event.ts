/** The workspace webhook event (`job.run.succeeded` / `job.run.failed`) for an ended job run. */
import type { WebhookEvent } from "../../schemas/webhooks";
import { webhookEvent } from "../webhook/webhook-events";
import type { StoredRun } from "./job-ledger";
import type { JobRecord } from "./job-record";

/** The event for a run that ended; timed-out runs count as failed. */
export function jobRunWebhookEvent(record: JobRecord, run: StoredRun): WebhookEvent {
  const ok = run.status === "succeeded";
  return webhookEvent(ok ? "job.run.succeeded" : "job.run.failed", {
    conversation_id: run.conversation_id ?? "",
    run_id: run.conv_run_id ?? "",
    status: run.status,
    ...(ok ? { output: { result_path: run.result_path, excerpt: run.excerpt } } : {}),
    error: run.error,
    usage: run.tokens,
    job_id: record.id,
    job_run_id: run.id,
  });
}
