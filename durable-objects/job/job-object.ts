/**
 * One scheduled job = one Durable Object: its settings, its run ledger and ONE alarm set to
 * the next moment something is due (an occurrence, a run's deadline or poll, a webhook retry).
 * Every alarm, cron sweep and run-end notice goes through one serialised `tick` (./job-tick.ts),
 * and every occurrence is claimed in the ledger under a UNIQUE key before anything is awaited.
 */

import { DurableObject } from "cloudflare:workers";
import type { CreateJob, Job, JobRun, UpdateJob } from "../../schemas/jobs";
import { type CursorPage, cursorPage } from "../../schemas/page";
import { readEnv } from "../engine/config/env";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { migrate } from "../engine/store/migrations";
import { armAlarm } from "./job-alarm";
import { createdRecord, updatedRecord } from "./job-changes";
import { JobLedger, jobRunView } from "./job-ledger";
import { type JobRecord, JobRecordStore, jobView, nextWake } from "./job-record";
import { cancelConversation } from "./job-runs";
import { JOB_MIGRATIONS } from "./job-schema";
import { applyUpdate, settingsFromCreate, settingsProblem } from "./job-settings";
import { allowPrivate, beginRun, type JobContext, jobScope, manualOccurrence, tickJob } from "./job-tick";

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
    const problem = settingsProblem(settings, allowPrivate(this.env));
    if (problem) return fail(400, problem.code, problem.message);
    const record = createdRecord({ id, workspaceId, settings, secret, origin, now: this.clock() });
    this.records.save(record);
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
    const problem = settingsProblem(settings, allowPrivate(this.env));
    if (problem) return fail(400, problem.code, problem.message);
    const updated = updatedRecord(record, settings, this.clock());
    this.records.save(updated.record);
    await this.arm();
    return ok({ ...jobView(this.record()!, true), credentials_cleared: updated.moved });
  }

  /** Deletes the job and its ledger; a run in progress is cancelled. */
  destroy(): Promise<void> {
    return this.serial(async () => {
      const record = this.record();
      const active = this.ledger.active();
      if (record && active) await cancelConversation(jobScope(this.env, record), active);
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
      const run = await beginRun(this.job(), record, manualOccurrence(now), now);
      await this.arm();
      return ok(jobRunView(run!));
    });
  }

  /** The run ledger, newest first. */
  listRuns(limit: number, cursor: string | null): RpcResult<CursorPage<JobRun>> {
    const page = this.ledger.list(limit, cursor);
    if (!page.ok) return page;
    return ok(cursorPage(page.value.runs.map(jobRunView), page.value.hasMore, page.value.lastCursor));
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

  // ---- the tick and the alarm ----------------------------------------------------------------

  private async tick(): Promise<void> {
    const record = this.record();
    if (!record) return;
    await tickJob(this.job(), record);
    await this.arm();
  }

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
    return armAlarm(this.ctx.storage, wake, () => this.clock(), onlyIfLate);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Runs `fn` after every earlier call, so ticks never interleave. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  /** The job as a tick sees it. */
  private job(): JobContext {
    return {
      env: this.env,
      ledger: this.ledger,
      now: () => this.clock(),
      save: (record) => this.records.save(record),
      waitUntil: (p) => this.ctx.waitUntil(p),
    };
  }

  private record(): JobRecord | null {
    return this.records.get();
  }
}
