/**
 * A job's run ledger in SQLite. Every run is keyed by its occurrence (`at:<epoch ms>` for
 * scheduled instants, `manual:<uuid>` for runs started by hand) under a UNIQUE constraint, so an
 * occurrence seen twice (double alarms, a cron sweep, a restart) is recorded once.
 */

import type { Usage } from "../../schemas/api";
import type { JobRun, JobRunStatus, JobRunTrigger, WebhookDelivery } from "../../schemas/jobs";
import { cursorPosition, INVALID_CURSOR, listCursor } from "../../schemas/list-cursor";
import { ok, type RpcResult } from "../engine/rpc-result";
import { addColumn } from "../engine/store/migrations";
import { randomToken } from "../engine/tokens";

/** A ledger row with what the job object needs beyond the public view. */
export interface StoredRun extends JobRun {
  conv_run_id: string | null;
  deadline: number | null;
  excerpt: string | null;
  /** The URLs its result cited (for later runs' memory). */
  cited_urls: string[];
}

/** A new ledger entry. */
export interface Claim {
  key: string;
  trigger: JobRunTrigger;
  scheduledAt: number;
  missed: number;
  status: "running" | "skipped";
  now: number;
  conversationId?: string;
  convRunId?: string;
  deadline?: number;
  error?: { code: string; message: string };
}

/** How a run ended. */
export interface Outcome {
  status: Exclude<JobRunStatus, "running" | "skipped">;
  endedAt: number;
  resultPath?: string | null;
  tokens?: Usage | null;
  error?: { code: string; message: string } | null;
  excerpt?: string | null;
  citationsUnverified?: number | null;
  grades?: { passed: number; total: number } | null;
  citedUrls?: string[];
}

interface Row extends Record<string, SqlStorageValue> {
  number: number;
  id: string;
  trigger: string;
  scheduled_at: number;
  missed: number;
  started_at: number | null;
  ended_at: number | null;
  status: string;
  conversation_id: string | null;
  conv_run_id: string | null;
  deadline: number | null;
  result_path: string | null;
  tokens: string | null;
  error: string | null;
  excerpt: string | null;
  webhook: string | null;
  webhook_next_at: number | null;
  citations_unverified: number | null;
  grades_passed: number | null;
  grades_total: number | null;
  cited_urls: string | null;
}

/** Creates the job run ledger table: the object's schema steps call it. */
export function createJobRunTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS job_runs (
    number INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, occurrence_key TEXT NOT NULL UNIQUE,
    trigger TEXT NOT NULL, scheduled_at INTEGER NOT NULL, missed INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER, ended_at INTEGER, status TEXT NOT NULL, conversation_id TEXT, conv_run_id TEXT,
    deadline INTEGER, result_path TEXT, tokens TEXT, error TEXT, excerpt TEXT,
    webhook TEXT, webhook_next_at INTEGER);
    CREATE INDEX IF NOT EXISTS job_runs_status ON job_runs (status);
    CREATE INDEX IF NOT EXISTS job_runs_webhook ON job_runs (webhook_next_at);`);
}

/** Adds the research columns of a run (schema step 2): its review and the URLs its result cited. */
export function addJobRunResearchColumns(sql: SqlStorage): void {
  addColumn(sql, "job_runs", "citations_unverified", "INTEGER");
  addColumn(sql, "job_runs", "grades_passed", "INTEGER");
  addColumn(sql, "job_runs", "grades_total", "INTEGER");
  addColumn(sql, "job_runs", "cited_urls", "TEXT");
}

/** The ledger of one job. */
export class JobLedger {
  constructor(
    private readonly sql: SqlStorage,
    private readonly jobId: () => string,
  ) {}

  /** Records an occurrence; null when it was already recorded. */
  claim(c: Claim): StoredRun | null {
    const id = `jrun_${randomToken(9)}`;
    const inserted = this.sql.exec(
      `INSERT OR IGNORE INTO job_runs (id, occurrence_key, trigger, scheduled_at, missed, started_at, ended_at,
        status, conversation_id, conv_run_id, deadline, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      c.key,
      c.trigger,
      c.scheduledAt,
      c.missed,
      c.status === "running" ? c.now : null,
      c.status === "skipped" ? c.now : null,
      c.status,
      c.conversationId ?? null,
      c.convRunId ?? null,
      c.deadline ?? null,
      c.error ? JSON.stringify(c.error) : null,
    ).rowsWritten;
    return inserted > 0 ? this.get(id) : null;
  }

  get(id: string): StoredRun | null {
    const row = this.sql.exec<Row>("SELECT * FROM job_runs WHERE id = ?", id).toArray()[0];
    return row ? this.toRun(row) : null;
  }

  /** The run in progress, if any (a job runs one at a time). */
  active(): StoredRun | null {
    const row = this.sql
      .exec<Row>("SELECT * FROM job_runs WHERE status = 'running' ORDER BY number LIMIT 1")
      .toArray()[0];
    return row ? this.toRun(row) : null;
  }

  /** Ends a running run; false when it had already ended. */
  finish(id: string, o: Outcome): boolean {
    return (
      this.sql.exec(
        `UPDATE job_runs SET status = ?, ended_at = ?, result_path = ?, tokens = ?, error = ?, excerpt = ?,
         citations_unverified = ?, grades_passed = ?, grades_total = ?, cited_urls = ?
         WHERE id = ? AND status = 'running'`,
        o.status,
        o.endedAt,
        o.resultPath ?? null,
        o.tokens ? JSON.stringify(o.tokens) : null,
        o.error ? JSON.stringify(o.error) : null,
        o.excerpt ?? null,
        o.citationsUnverified ?? null,
        o.grades?.passed ?? null,
        o.grades?.total ?? null,
        o.citedUrls?.length ? JSON.stringify(o.citedUrls) : null,
        id,
      ).rowsWritten > 0
    );
  }

  /** Sets a run's webhook delivery state (next attempt time kept apart so it can be queried). */
  setWebhook(id: string, delivery: WebhookDelivery): void {
    this.sql.exec(
      "UPDATE job_runs SET webhook = ?, webhook_next_at = ? WHERE id = ?",
      JSON.stringify(delivery),
      delivery.status === "pending" ? delivery.next_attempt_at : null,
      id,
    );
  }

  /** Runs whose webhook is due at `now`. */
  dueWebhooks(now: number): StoredRun[] {
    return this.sql
      .exec<Row>("SELECT * FROM job_runs WHERE webhook_next_at <= ? ORDER BY webhook_next_at", now)
      .toArray()
      .map((r) => this.toRun(r));
  }

  /** When the next pending webhook attempt is due. */
  nextWebhookAt(): number | null {
    return (
      this.sql.exec<{ at: number | null }>("SELECT MIN(webhook_next_at) AS at FROM job_runs").toArray()[0]
        ?.at ?? null
    );
  }

  /** The newest `limit` runs before run `beforeNumber` that saved a report, and how many such runs there are. */
  reportsBefore(beforeNumber: number, limit: number): { runs: StoredRun[]; total: number } {
    const where = "WHERE number < ? AND result_path IS NOT NULL";
    const total = this.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM job_runs ${where}`, beforeNumber)
      .one().n;
    const rows = limit
      ? this.sql
          .exec<Row>(`SELECT * FROM job_runs ${where} ORDER BY number DESC LIMIT ?`, beforeNumber, limit)
          .toArray()
      : [];
    return { runs: rows.map((r) => this.toRun(r)), total };
  }

  /** Runs newest first, `limit` at a time after the `cursor` position (a run number and id). */
  list(
    limit: number,
    cursor: string | null,
  ): RpcResult<{ runs: StoredRun[]; hasMore: boolean; lastCursor: string | null }> {
    const after = cursor === null ? null : cursorPosition(cursor, (id) => this.get(id)?.number);
    if (cursor !== null && !after) return INVALID_CURSOR;
    const rows = this.sql
      .exec<Row>(
        "SELECT * FROM job_runs WHERE number < ? ORDER BY number DESC LIMIT ?",
        after?.key ?? Number.MAX_SAFE_INTEGER,
        limit + 1,
      )
      .toArray();
    const runs = rows.slice(0, limit).map((r) => this.toRun(r));
    const last = runs.at(-1);
    return ok({
      runs,
      hasMore: rows.length > limit,
      lastCursor: last ? listCursor({ key: last.number, id: last.id }) : null,
    });
  }

  private toRun(r: Row): StoredRun {
    return {
      id: r.id,
      object: "job_run",
      job_id: this.jobId(),
      number: r.number,
      trigger: r.trigger as JobRunTrigger,
      scheduled_at: r.scheduled_at,
      missed_occurrences: r.missed,
      started_at: r.started_at,
      ended_at: r.ended_at,
      status: r.status as JobRunStatus,
      conversation_id: r.conversation_id,
      result_path: r.result_path,
      tokens: r.tokens ? { cost_usd: null, ...(JSON.parse(r.tokens) as Omit<Usage, "cost_usd">) } : null,
      error: r.error ? (JSON.parse(r.error) as JobRun["error"]) : null,
      webhook: r.webhook ? (JSON.parse(r.webhook) as WebhookDelivery) : null,
      citations_unverified: r.citations_unverified ?? null,
      grades_passed: r.grades_passed ?? null,
      grades_total: r.grades_total ?? null,
      conv_run_id: r.conv_run_id,
      deadline: r.deadline,
      excerpt: r.excerpt,
      cited_urls: r.cited_urls ? (JSON.parse(r.cited_urls) as string[]) : [],
    };
  }
}

/** The public view of a ledger row. */
export function jobRunView(run: StoredRun): JobRun {
  const { conv_run_id: _r, deadline: _d, excerpt: _e, cited_urls: _c, ...view } = run;
  return view;
}
