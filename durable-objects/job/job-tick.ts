/**
 * One tick of a job (./job-object.ts calls it, serialised, on every alarm, sweep and run-end
 * notice): finish or stop the active run, claim the due occurrence and start its run (or record it
 * as skipped), deliver the due webhooks.
 */
import type { RunResult } from "../../schemas/api";
import type { JobRun } from "../../schemas/jobs";
import { readEnv } from "../engine/config/env";
import { raiseWebhookEvent } from "../webhook/webhook-events";
import type { JobLedger, StoredRun } from "./job-ledger";
import type { JobRecord } from "./job-record";
import {
  cancelConversation,
  deliverDueWebhooks,
  type JobScope,
  reviewOutcome,
  runState,
  runUsage,
  saveResult,
  startConversation,
} from "./job-runs";
import { jobRunWebhookEvent } from "./job-webhook-event";
import { planDue } from "./schedule";
import { pendingDelivery } from "./webhook";

/** What a tick needs of the job's object. */
export interface JobContext {
  env: Env;
  ledger: JobLedger;
  /** The job's notion of now (tests move it). */
  now(): number;
  save(record: JobRecord): void;
  waitUntil(p: Promise<unknown>): void;
}

/** An occurrence to claim: its unique key, what triggered it, when it was due and how many were missed. */
export interface Occurrence {
  key: string;
  trigger: JobRun["trigger"];
  at: number;
  missed: number;
}

/** Which job a run belongs to. */
export function jobScope(env: Env, record: JobRecord): JobScope {
  return { env, workspaceId: record.workspace_id, jobId: record.id, origin: record.origin };
}

/** Whether the job's webhooks may go to private networks (ALLOW_PRIVATE_NETWORK). */
export function allowPrivate(env: Env): boolean {
  return readEnv(env).ALLOW_PRIVATE_NETWORK;
}

/** A run started by hand now. */
export function manualOccurrence(now: number): Occurrence {
  return { key: `manual:${crypto.randomUUID()}`, trigger: "manual" as const, at: now, missed: 0 };
}

/** Whatever is due now, except setting the alarm again. */
export async function tickJob(job: JobContext, record: JobRecord): Promise<void> {
  await checkActive(job, record);
  const now = job.now();
  if (record.settings.enabled) {
    const plan = planDue(record.settings.schedule, record.settings.timezone, record.cursor, now);
    if (plan.kind !== "none") {
      job.save({ ...record, cursor: plan.at });
      const trigger = plan.kind === "catch_up" ? ("catch_up" as const) : ("schedule" as const);
      const missed = plan.kind === "catch_up" ? plan.missed : 0;
      await beginRun(job, record, { key: `at:${plan.at}`, trigger, at: plan.at, missed }, now);
    }
  }
  await deliverWebhooks(job, record);
}

/** Claims an occurrence and starts its run (or records it as skipped); null when already claimed. */
export async function beginRun(
  job: JobContext,
  record: JobRecord,
  o: Occurrence,
  now: number,
): Promise<StoredRun | null> {
  const base = { key: o.key, trigger: o.trigger, scheduledAt: o.at, missed: o.missed, now };
  if (job.ledger.active()) {
    return job.ledger.claim({
      ...base,
      status: "skipped",
      error: {
        code: "overlap",
        message: "The previous run was still going, so this occurrence was skipped.",
      },
    });
  }
  const run = job.ledger.claim({
    ...base,
    status: "running",
    conversationId: `conv_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    convRunId: `run_${crypto.randomUUID()}`,
    deadline: now + record.settings.max_runtime_seconds * 1000,
  });
  if (!run) return null;
  const error = await startConversation(jobScope(job.env, record), record.settings, run, job.ledger);
  if (error) endRun(job, record, run, { status: "failed", error });
  return job.ledger.get(run.id);
}

/** Finishes the active run when its conversation is done, or stops it at its deadline. */
async function checkActive(job: JobContext, record: JobRecord): Promise<void> {
  const run = job.ledger.active();
  if (!run) return;
  const state = await runState(jobScope(job.env, record), run);
  if (typeof state === "object") return complete(job, record, run, state);
  if (state === "missing") {
    // Starting is idempotent (same ids, idempotency key), so finish what a crash interrupted.
    const error = await startConversation(jobScope(job.env, record), record.settings, run, job.ledger);
    if (error) return endRun(job, record, run, { status: "failed", error });
  }
  if (run.deadline !== null && job.now() >= run.deadline) {
    await cancelConversation(jobScope(job.env, record), run);
    endRun(job, record, run, {
      status: "timed_out",
      tokens: await runUsage(jobScope(job.env, record), run),
      error: {
        code: "max_runtime",
        message: `The run was stopped after ${record.settings.max_runtime_seconds} s (max_runtime_seconds).`,
      },
    });
  }
}

/** Records how a run whose conversation is done ended: its result saved and reviewed, or its failure. */
async function complete(
  job: JobContext,
  record: JobRecord,
  run: StoredRun,
  result: RunResult,
): Promise<void> {
  const tokens = result.usage;
  if (result.status !== "succeeded") {
    const error = result.error ?? { code: result.status, message: `The run ended as ${result.status}.` };
    return endRun(job, record, run, { status: "failed", error, tokens });
  }
  const review = reviewOutcome(record.settings, result);
  const saved = await saveResult(jobScope(job.env, record), record.settings, run, result.output);
  if ("error" in saved)
    return endRun(job, record, run, { ...review, status: "failed", error: saved.error, tokens });
  const ended = { tokens, resultPath: saved.path, excerpt: saved.excerpt, ...review };
  endRun(job, record, run, { status: review.error ? "failed" : "succeeded", ...ended });
}

/** Records a run's end and queues its webhook. */
function endRun(
  job: JobContext,
  record: JobRecord,
  run: StoredRun,
  o: Omit<Parameters<JobLedger["finish"]>[1], "endedAt">,
): void {
  const now = job.now();
  if (!job.ledger.finish(run.id, { ...o, endedAt: now })) return;
  if (record.settings.webhook_url) job.ledger.setWebhook(run.id, pendingDelivery(now));
  const event = jobRunWebhookEvent(record, job.ledger.get(run.id) ?? run);
  job.waitUntil(raiseWebhookEvent(job.env, record.workspace_id, event));
}

async function deliverWebhooks(job: JobContext, record: JobRecord): Promise<void> {
  await deliverDueWebhooks(jobScope(job.env, record), record, job.ledger, {
    now: () => job.now(),
    allowPrivateNetwork: allowPrivate(job.env),
    retryBaseMs: readEnv(job.env).JOB_WEBHOOK_RETRY_BASE_MS,
  });
}
