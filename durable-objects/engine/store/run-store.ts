/**
 * The conversation's runs in SQLite: a FIFO queue of user messages, each handled by one run,
 * with idempotency keys, status, step count, token usage and outcome.
 */

import type { RunUsage, SubAgentUsage } from "../../../shared/api";
import type { Usage } from "../model/model-types";
import { addUsage, ZERO_USAGE } from "../model/model-types";
import type { RetryCounters } from "../tools/tool-runner";

export type { SubAgentType } from "../../../shared/api";

/** Which sub-agent a usage line belongs to. */
export type SubAgentRef = Pick<SubAgentUsage, "id" | "type" | "label">;

/** A sub-agent's usage line in a run, if it has one. */
export function subAgentLine(run: Run, id: string): SubAgentUsage | undefined {
  return run.usage.sub_agents?.find((l) => l.id === id);
}

export type RunStatus = "queued" | "running" | "waiting_for_user" | "succeeded" | "failed" | "cancelled";

/** One run of the agent loop. */
export interface Run {
  id: string;
  status: RunStatus;
  content: string;
  idempotency_key: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  steps: number;
  usage: RunUsage;
  output: unknown;
  error: { code: string; message: string } | null;
  cancel_requested: boolean;
  retries: RetryCounters;
  /** Sequence of the RUN_STARTED event, where recovery scans begin. */
  start_seq: number;
}

interface RunRow extends Record<string, SqlStorageValue> {
  id: string;
  status: string;
  content: string;
  idempotency_key: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  steps: number;
  usage: string;
  output: string | null;
  error: string | null;
  cancel_requested: number;
  retries: string;
  start_seq: number;
}

const ACTIVE = "('running','waiting_for_user')";

/** Queue and ledger of runs. */
export class RunStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS runs (
      ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, status TEXT NOT NULL, content TEXT NOT NULL,
      idempotency_key TEXT UNIQUE, created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
      steps INTEGER NOT NULL DEFAULT 0, usage TEXT NOT NULL, output TEXT, error TEXT,
      cancel_requested INTEGER NOT NULL DEFAULT 0, retries TEXT NOT NULL DEFAULT '{}', start_seq INTEGER NOT NULL DEFAULT 0)`);
  }

  /** Queues a run for a message; the same idempotency key returns the existing run. */
  enqueue(
    content: string,
    idempotencyKey: string | null,
    id = `run_${crypto.randomUUID()}`,
  ): { run: Run; created: boolean } {
    if (idempotencyKey) {
      const existing = this.byIdempotencyKey(idempotencyKey);
      if (existing) return { run: existing, created: false };
    }
    if (this.get(id)) return { run: this.get(id)!, created: false };
    this.sql.exec(
      "INSERT INTO runs (id, status, content, idempotency_key, created_at, usage) VALUES (?, 'queued', ?, ?, ?, ?)",
      id,
      content,
      idempotencyKey,
      Date.now(),
      JSON.stringify(ZERO_USAGE),
    );
    return { run: this.get(id)!, created: true };
  }

  get(id: string): Run | null {
    const row = this.sql.exec<RunRow>("SELECT * FROM runs WHERE id = ?", id).toArray()[0];
    return row ? toRun(row) : null;
  }

  byIdempotencyKey(key: string): Run | null {
    const row = this.sql.exec<RunRow>("SELECT * FROM runs WHERE idempotency_key = ?", key).toArray()[0];
    return row ? toRun(row) : null;
  }

  /** The run in progress (running or waiting for the user), if any. */
  active(): Run | null {
    const row = this.sql
      .exec<RunRow>(`SELECT * FROM runs WHERE status IN ${ACTIVE} ORDER BY ord LIMIT 1`)
      .toArray()[0];
    return row ? toRun(row) : null;
  }

  /** The oldest queued run. */
  nextQueued(): Run | null {
    const row = this.sql
      .exec<RunRow>("SELECT * FROM runs WHERE status = 'queued' ORDER BY ord LIMIT 1")
      .toArray()[0];
    return row ? toRun(row) : null;
  }

  queuedCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM runs WHERE status = 'queued'").one().n;
  }

  /** Marks a queued run as started. */
  start(id: string, startSeq: number): void {
    this.sql.exec(
      "UPDATE runs SET status = 'running', started_at = ?, start_seq = ? WHERE id = ?",
      Date.now(),
      startSeq,
      id,
    );
  }

  setStatus(id: string, status: RunStatus): void {
    this.sql.exec("UPDATE runs SET status = ? WHERE id = ?", status, id);
  }

  /** Records a finished model turn: one more step and its tokens. */
  addStep(id: string, usage: Usage): void {
    this.addUsage(id, usage);
    this.sql.exec("UPDATE runs SET steps = steps + 1 WHERE id = ?", id);
  }

  /** Adds tokens spent outside a step (e.g. summarising the context). */
  addUsage(id: string, usage: Usage): void {
    const run = this.get(id);
    if (!run) return;
    this.saveUsage(id, { ...run.usage, ...addUsage(run.usage, usage) });
  }

  /** Adds a sub-agent's tokens (and a model turn when `step`) to the run's totals and to its own line. */
  addSubAgentUsage(id: string, agent: SubAgentRef, usage: Usage, step: boolean): void {
    const run = this.get(id);
    if (!run) return;
    const lines = run.usage.sub_agents ?? [];
    const old = lines.find((l) => l.id === agent.id) ?? { ...agent, steps: 0, ...ZERO_USAGE };
    const line: SubAgentUsage = { ...old, ...addUsage(old, usage), steps: old.steps + (step ? 1 : 0) };
    this.saveUsage(id, {
      ...addUsage(run.usage, usage),
      sub_agents: lines.some((l) => l.id === agent.id)
        ? lines.map((l) => (l.id === agent.id ? line : l))
        : [...lines, line],
    });
  }

  private saveUsage(id: string, usage: RunUsage): void {
    this.sql.exec("UPDATE runs SET usage = ? WHERE id = ?", JSON.stringify(usage), id);
  }

  saveRetries(id: string, retries: RetryCounters): void {
    this.sql.exec("UPDATE runs SET retries = ? WHERE id = ?", JSON.stringify(retries), id);
  }

  requestCancel(id: string): void {
    this.sql.exec("UPDATE runs SET cancel_requested = 1 WHERE id = ?", id);
  }

  /** Ends a run with its outcome. */
  finish(
    id: string,
    status: "succeeded" | "failed" | "cancelled",
    output: unknown,
    error: Run["error"] = null,
  ): void {
    this.sql.exec(
      "UPDATE runs SET status = ?, finished_at = ?, output = ?, error = ? WHERE id = ?",
      status,
      Date.now(),
      output === undefined ? null : JSON.stringify(output),
      error ? JSON.stringify(error) : null,
      id,
    );
  }

  /** Tokens used by every run of the conversation. */
  totalUsage(): Usage {
    const rows = this.sql.exec<{ usage: string }>("SELECT usage FROM runs").toArray();
    return rows.reduce<Usage>((acc, r) => {
      const u = JSON.parse(r.usage) as Usage;
      return {
        input_tokens: acc.input_tokens + u.input_tokens,
        output_tokens: acc.output_tokens + u.output_tokens,
        total_tokens: acc.total_tokens + u.total_tokens,
      };
    }, ZERO_USAGE);
  }
}

function toRun(r: RunRow): Run {
  return {
    id: r.id,
    status: r.status as RunStatus,
    content: r.content,
    idempotency_key: r.idempotency_key,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    steps: r.steps,
    usage: JSON.parse(r.usage) as RunUsage,
    output: r.output === null ? null : JSON.parse(r.output),
    error: r.error === null ? null : (JSON.parse(r.error) as Run["error"]),
    cancel_requested: r.cancel_requested === 1,
    retries: JSON.parse(r.retries) as RetryCounters,
    start_seq: r.start_seq,
  };
}
