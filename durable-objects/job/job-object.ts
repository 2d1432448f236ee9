/**
 * One scheduled job = one Durable Object: its settings, its run ledger and ONE alarm set to
 * the next moment something is due (an occurrence, a run's deadline or poll, a webhook retry).
 * Every alarm, cron sweep and run-end notice goes through one serialised `tick`, and every
 * occurrence is claimed in the ledger under a UNIQUE key before anything is awaited.
 */

import { DurableObject } from "cloudflare:workers";
import type { RunResult } from "../../schemas/api";
import { sameOrigin } from "../../schemas/credentials";
import type { CreateJob, Job, JobRun, UpdateJob } from "../../schemas/jobs";
import { type CursorPage, cursorPage } from "../../schemas/page";
import { readEnv } from "../engine/config/env";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { migrate } from "../engine/store/migrations";
import { newWebhookSecret } from "../engine/webhook-delivery/signing";
import { raiseWebhookEvent } from "../webhook/webhook-events";
import { JobLedger, jobRunView, type StoredRun } from "./job-ledger";
import { type JobRecord, JobRecordStore, jobView, nextWake } from "./job-record";
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
import { JOB_MIGRATIONS } from "./job-schema";
import { applyUpdate, settingsFromCreate, settingsProblem } from "./job-settings";
import { jobRunWebhookEvent } from "./job-webhook-event";
import { planDue } from "./schedule";
import { pendingDelivery } from "./webhook";

/** The Durable Object of one scheduled job. */
export class JobObject extends DurableObject<Env> {
  /** The job's notion of now. A test seam: tests move it; production uses the wall clock. */
  clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;
  private ledger: JobLedger;
  private records!: JobRecordStore;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.ledger = this.setUp();
  }

  /** Brings the tables to the current schema (again after a delete, which drops them). */
  private setUp(): JobLedger {
    migrate(this.ctx.storage, JOB_MIGRATIONS);
    this.records = new JobRecordStore(this.sql);
    return new JobLedger(this.sql, () => this.record()?.id ?? "");
  }

  // ---- the job's settings --------------------------------------------------------------

  /** Creates the job (idempotent for the same id); refuses bad settings. */
  async create(
    id: string,
    workspaceId: string,
    body: CreateJob,
    secret: string,
    origin?: string,
  ): Promise<RpcResult<Job>> {
    const existing = this.record();
    if (existing) return ok(jobView(existing, true));
    const settings = settingsFromCreate(body);
    const problem = settingsProblem(settings, this.allowPrivate());
    if (problem) return fail(400, problem.code, problem.message);
    const now = this.clock();
    const record: JobRecord = {
      id,
      workspace_id: workspaceId,
      settings,
      webhook_secret: secret,
      created_at: now,
      updated_at: now,
      cursor: now,
      ...(origin ? { origin } : {}),
      version: 1,
    };
    this.save(record);
    await this.arm();
    return ok(jobView(record, true));
  }

  /** The job as the API shows it, or null. */
  describe(withSecret = false): Job | null {
    const record = this.record();
    return record ? jobView(record, withSecret) : null;
  }

  /**
   * Applies a partial update; a new schedule or re-enabling counts occurrences from now on. A
   * webhook URL moved to another origin gets a new signing secret (`credentials_cleared`): the
   * old one was shared with the old receiver only.
   */
  async update(patch: UpdateJob): Promise<RpcResult<Job & { credentials_cleared: boolean }>> {
    const record = this.record();
    if (!record) return fail(404, "not_found", "No such job.");
    const settings = applyUpdate(record.settings, patch);
    const problem = settingsProblem(settings, this.allowPrivate());
    if (problem) return fail(400, problem.code, problem.message);
    const now = this.clock();
    const old = record.settings;
    const restart =
      settings.schedule !== old.schedule ||
      settings.timezone !== old.timezone ||
      (settings.enabled && !old.enabled);
    const moved =
      old.webhook_url !== null &&
      settings.webhook_url !== null &&
      !sameOrigin(old.webhook_url, settings.webhook_url);
    const webhook_secret = moved ? newWebhookSecret() : record.webhook_secret;
    this.save({
      ...record,
      settings,
      webhook_secret,
      updated_at: now,
      cursor: restart ? now : record.cursor,
    });
    await this.arm();
    return ok({ ...jobView(this.record()!, true), credentials_cleared: moved });
  }

  /** Deletes the job and its ledger; a run in progress is cancelled. */
  destroy(): Promise<void> {
    return this.serial(async () => {
      const record = this.record();
      const active = this.ledger.active();
      if (record && active) await cancelConversation(this.scope(record), active);
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.ledger = this.setUp();
    });
  }

  // ---- runs ---------------------------------------------------------------------------------

  /** Starts a run now; recorded as skipped when the previous run is still going. */
  runNow(): Promise<RpcResult<JobRun>> {
    return this.serial(async () => {
      const record = this.record();
      if (!record) return fail(404, "not_found", "No such job.");
      const now = this.clock();
      const occurrence = {
        key: `manual:${crypto.randomUUID()}`,
        trigger: "manual" as const,
        at: now,
        missed: 0,
      };
      const run = await this.begin(record, occurrence, now);
      await this.arm();
      return ok(jobRunView(run!));
    });
  }

  /** The run ledger, newest first. */
  listRuns(limit: number, cursor: string | null): CursorPage<JobRun> {
    const page = this.ledger.list(limit, cursor);
    return cursorPage(page.runs.map(jobRunView), page.hasMore, page.runs.at(-1)?.id);
  }

  /** Called by the conversation when a run of this job ended. */
  runEnded(_jobRunId: string): Promise<void> {
    return this.serial(() => this.tick());
  }

  /** Sets the alarm if it is missing or late (the cron sweep calls this for every job). */
  async ensureArmed(): Promise<{ alarm_at: number | null }> {
    return this.serial(async () => ({ alarm_at: await this.arm(true) }));
  }

  /** The alarm: whatever is due now. */
  async alarm(): Promise<void> {
    await this.serial(() => this.tick());
  }

  // ---- the tick ----------------------------------------------------------------------------

  private async tick(): Promise<void> {
    const record = this.record();
    if (!record) return;
    await this.checkActive(record);
    const now = this.clock();
    if (record.settings.enabled) {
      const plan = planDue(record.settings.schedule, record.settings.timezone, record.cursor, now);
      if (plan.kind !== "none") {
        this.save({ ...record, cursor: plan.at });
        const trigger = plan.kind === "catch_up" ? ("catch_up" as const) : ("schedule" as const);
        const missed = plan.kind === "catch_up" ? plan.missed : 0;
        await this.begin(record, { key: `at:${plan.at}`, trigger, at: plan.at, missed }, now);
      }
    }
    await this.deliverWebhooks(record);
    await this.arm();
  }

  /** Claims an occurrence and starts its run (or records it as skipped); null when already claimed. */
  private async begin(
    record: JobRecord,
    o: { key: string; trigger: JobRun["trigger"]; at: number; missed: number },
    now: number,
  ): Promise<StoredRun | null> {
    const base = { key: o.key, trigger: o.trigger, scheduledAt: o.at, missed: o.missed, now };
    if (this.ledger.active()) {
      return this.ledger.claim({
        ...base,
        status: "skipped",
        error: {
          code: "overlap",
          message: "The previous run was still going, so this occurrence was skipped.",
        },
      });
    }
    const run = this.ledger.claim({
      ...base,
      status: "running",
      conversationId: `conv_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
      convRunId: `run_${crypto.randomUUID()}`,
      deadline: now + record.settings.max_runtime_seconds * 1000,
    });
    if (!run) return null;
    const error = await startConversation(this.scope(record), record.settings, run, this.ledger);
    if (error) this.end(record, run, { status: "failed", error });
    return this.ledger.get(run.id);
  }

  /** Finishes the active run when its conversation is done, or stops it at its deadline. */
  private async checkActive(record: JobRecord): Promise<void> {
    const run = this.ledger.active();
    if (!run) return;
    const state = await runState(this.scope(record), run);
    if (typeof state === "object") return this.complete(record, run, state);
    if (state === "missing") {
      // Starting is idempotent (same ids, idempotency key), so finish what a crash interrupted.
      const error = await startConversation(this.scope(record), record.settings, run, this.ledger);
      if (error) return this.end(record, run, { status: "failed", error });
    }
    if (run.deadline !== null && this.clock() >= run.deadline) {
      await cancelConversation(this.scope(record), run);
      this.end(record, run, {
        status: "timed_out",
        tokens: await runUsage(this.scope(record), run),
        error: {
          code: "max_runtime",
          message: `The run was stopped after ${record.settings.max_runtime_seconds} s (max_runtime_seconds).`,
        },
      });
    }
  }

  private async complete(record: JobRecord, run: StoredRun, result: RunResult): Promise<void> {
    const tokens = result.usage;
    if (result.status !== "succeeded") {
      const error = result.error ?? { code: result.status, message: `The run ended as ${result.status}.` };
      return this.end(record, run, { status: "failed", error, tokens });
    }
    const review = reviewOutcome(record.settings, result);
    const saved = await saveResult(this.scope(record), record.settings, run, result.output);
    if ("error" in saved)
      return this.end(record, run, { ...review, status: "failed", error: saved.error, tokens });
    const ended = { tokens, resultPath: saved.path, excerpt: saved.excerpt, ...review };
    this.end(record, run, { status: review.error ? "failed" : "succeeded", ...ended });
  }

  /** Records a run's end and queues its webhook. */
  private end(
    record: JobRecord,
    run: StoredRun,
    o: Omit<Parameters<JobLedger["finish"]>[1], "endedAt">,
  ): void {
    const now = this.clock();
    if (!this.ledger.finish(run.id, { ...o, endedAt: now })) return;
    if (record.settings.webhook_url) this.ledger.setWebhook(run.id, pendingDelivery(now));
    const event = jobRunWebhookEvent(record, this.ledger.get(run.id) ?? run);
    this.ctx.waitUntil(raiseWebhookEvent(this.env, record.workspace_id, event));
  }

  private async deliverWebhooks(record: JobRecord): Promise<void> {
    await deliverDueWebhooks(this.scope(record), record, this.ledger, {
      now: () => this.clock(),
      allowPrivateNetwork: this.allowPrivate(),
      retryBaseMs: readEnv(this.env).JOB_WEBHOOK_RETRY_BASE_MS,
    });
  }

  // ---- the alarm -----------------------------------------------------------------------------

  /** Sets the one alarm at the next due moment; with `onlyIfLate`, keeps an earlier alarm. */
  private async arm(onlyIfLate = false): Promise<number | null> {
    const record = this.record();
    const wake = record
      ? nextWake({
          record,
          active: this.ledger.active(),
          nextWebhookAt: this.ledger.nextWebhookAt(),
          now: this.clock(),
          pollMs: readEnv(this.env).JOB_POLL_MS,
        })
      : null;
    const current = await this.ctx.storage.getAlarm();
    if (wake === null) {
      if (!onlyIfLate) await this.ctx.storage.deleteAlarm();
      return onlyIfLate ? current : null;
    }
    // Alarms use the wall clock; the job's clock may be moved by tests, so set the same distance.
    const at = Date.now() + Math.max(0, wake - this.clock());
    if (onlyIfLate && current !== null && current <= at) return current;
    await this.ctx.storage.setAlarm(at);
    return at;
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Runs `fn` after every earlier call, so ticks never interleave. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private scope(record: JobRecord): JobScope {
    return { env: this.env, workspaceId: record.workspace_id, jobId: record.id, origin: record.origin };
  }

  private allowPrivate(): boolean {
    return readEnv(this.env).ALLOW_PRIVATE_NETWORK;
  }

  private record(): JobRecord | null {
    return this.records.get();
  }

  private save(record: JobRecord): void {
    this.records.save(record);
  }
}
