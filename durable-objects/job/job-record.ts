/** What a job object stores about its job, how the API shows it, and when it next has work. */
import type { Job, JobSettings } from "../../schemas/jobs";
import type { StoredRun } from "./job-ledger";
import { researchSettings } from "./job-memory";
import { nextOccurrence } from "./schedule";

/** The stored job: settings, signing secret and the schedule's cursor. */
export interface JobRecord {
  id: string;
  workspace_id: string;
  settings: JobSettings;
  webhook_secret: string;
  created_at: number;
  updated_at: number;
  /** The last occurrence already handled (or the moment the schedule started counting). */
  cursor: number;
  /** The origin the job was created through (absent in jobs created before it was recorded). */
  origin?: string;
  version: 1;
}

/** Creates the job record table: the object's schema steps call it. */
export function createJobRecordTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS job_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

/** The job record in the object's SQLite (one row, JSON). */
export class JobRecordStore {
  constructor(private readonly sql: SqlStorage) {}

  get(): JobRecord | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM job_meta WHERE key = 'job'").toArray()[0];
    return row ? (JSON.parse(row.value) as JobRecord) : null;
  }

  save(record: JobRecord): void {
    this.sql.exec("INSERT OR REPLACE INTO job_meta (key, value) VALUES ('job', ?)", JSON.stringify(record));
  }
}

/** The job as the API shows it; the webhook secret only when asked (the owner's own job view). */
export function jobView(record: JobRecord, withSecret: boolean): Job {
  const s = record.settings;
  return {
    id: record.id,
    object: "job",
    ...s,
    // Jobs stored before approvals existed have none.
    approvals: s.approvals ?? null,
    browser_profile: s.browser_profile ?? null, // jobs stored before profiles existed
    max_cost_usd: s.max_cost_usd ?? null,
    recording: s.recording ?? null,
    fallback_models: s.fallback_models ?? null, // jobs stored before fallbacks: MODEL_FALLBACKS
    ...researchSettings(s), // jobs stored before research settings get the defaults
    created_at: record.created_at,
    updated_at: record.updated_at,
    next_run_at: s.enabled ? nextOccurrence(s.schedule, s.timezone, record.cursor) : null,
    ...(withSecret ? { webhook_secret: record.webhook_secret } : {}),
  };
}

/**
 * The next moment the job has work, in its clock: the next occurrence, the active run's
 * deadline or poll, or a webhook retry. Null when nothing is pending.
 */
export function nextWake(opts: {
  record: JobRecord;
  active: StoredRun | null;
  nextWebhookAt: number | null;
  now: number;
  pollMs: number;
}): number | null {
  const { record, active } = opts;
  const times: number[] = [];
  if (record.settings.enabled) {
    const next = nextOccurrence(record.settings.schedule, record.settings.timezone, record.cursor);
    if (next !== null) times.push(next);
  }
  if (active) {
    times.push(opts.now + opts.pollMs);
    if (active.deadline !== null) times.push(active.deadline);
  }
  if (opts.nextWebhookAt !== null) times.push(opts.nextWebhookAt);
  return times.length ? Math.min(...times) : null;
}
