/**
 * The conversation's runs in SQLite: a FIFO queue of user messages, each handled by one run,
 * with idempotency keys, status, step count, token usage and outcome.
 */

import type { SubAgentUsage } from "../../../schemas/api";
import { addCost } from "../cost/price-table";
import { addUsage, type Usage, ZERO_USAGE } from "../model/model-types";
import type { RetryCounters } from "../tools/tool-runner";
import { packValue, unpackValue } from "./large-values";

export type RunStatus =
  | "queued"
  | "running"
  | "waiting_for_user"
  | "waiting_for_approval"
  | "succeeded"
  | "failed"
  | "cancelled";

export type { SubAgentType } from "../../../schemas/api";

/** A run's tokens and their cost in dollars (null while unknown: no price for its model), sub-agents included. */
export type RunUsage = Usage & {
  cost_usd: number | null;
  /** Seconds of browser time (the run's share of its workspace's browsers; its cost is in cost_usd). */
  browser_seconds?: number;
  /** One line per sub-agent the run started (already counted in the totals). */
  sub_agents?: SubAgentUsage[];
};

/** Which sub-agent a usage line belongs to. */
export type SubAgentRef = Pick<SubAgentUsage, "id" | "type" | "label">;

/** A sub-agent's usage line in a run, if it has one. */
export function subAgentLine(run: Run, id: string): SubAgentUsage | undefined {
  return run.usage.sub_agents?.find((l) => l.id === id);
}

const NO_USAGE: RunUsage = { ...ZERO_USAGE, cost_usd: null };

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

const ACTIVE = "('running','waiting_for_user','waiting_for_approval')";

/** Creates the runs table: the object's schema steps call it. */
export function createRunTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS runs (
    ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, status TEXT NOT NULL, content TEXT NOT NULL,
    idempotency_key TEXT UNIQUE, created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
    steps INTEGER NOT NULL DEFAULT 0, usage TEXT NOT NULL, output TEXT, error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0, retries TEXT NOT NULL DEFAULT '{}', start_seq INTEGER NOT NULL DEFAULT 0)`);
}

/** Queue and ledger of runs. */
export class RunStore {
  constructor(private readonly sql: SqlStorage) {}

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
      JSON.stringify(NO_USAGE),
    );
    return { run: this.get(id)!, created: true };
  }

  get(id: string): Run | null {
    const row = this.sql.exec<RunRow>("SELECT * FROM runs WHERE id = ?", id).toArray()[0];
    return row ? toRun(this.sql, row) : null;
  }

  byIdempotencyKey(key: string): Run | null {
    const row = this.sql.exec<RunRow>("SELECT * FROM runs WHERE idempotency_key = ?", key).toArray()[0];
    return row ? toRun(this.sql, row) : null;
  }

  /** The run in progress (running, or waiting for the user or an approval), if any. */
  active(): Run | null {
    const row = this.sql
      .exec<RunRow>(`SELECT * FROM runs WHERE status IN ${ACTIVE} ORDER BY ord LIMIT 1`)
      .toArray()[0];
    return row ? toRun(this.sql, row) : null;
  }

  /** The oldest queued run. */
  nextQueued(): Run | null {
    const row = this.sql
      .exec<RunRow>("SELECT * FROM runs WHERE status = 'queued' ORDER BY ord LIMIT 1")
      .toArray()[0];
    return row ? toRun(this.sql, row) : null;
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

  /**
   * Records a finished model turn: its tokens and their cost (null: unpriced), and one more step
   * — the run's own, or for a sub-agent's turn (`agent`) the sub-agent's line's.
   */
  addStep(id: string, usage: Usage, cost: number | null = null, agent?: SubAgentRef): void {
    this.addUsage(id, usage, cost, agent, true);
    if (!agent) this.sql.exec("UPDATE runs SET steps = steps + 1 WHERE id = ?", id);
  }

  /** Adds tokens spent outside a step (e.g. summarising the context) and their cost; `agent` also to its line. */
  addUsage(id: string, usage: Usage, cost: number | null = null, agent?: SubAgentRef, step = false): void {
    const run = this.get(id);
    if (!run) return;
    const total: RunUsage = {
      ...run.usage,
      ...addUsage(run.usage, usage),
      cost_usd: addCost(run.usage.cost_usd, cost),
    };
    if (agent) total.sub_agents = withLine(run.usage.sub_agents ?? [], agent, usage, cost, step);
    this.sql.exec("UPDATE runs SET usage = ? WHERE id = ?", JSON.stringify(total), id);
  }

  /** Adds browser time (seconds) and its cost to a run. */
  addBrowserTime(id: string, seconds: number, cost: number): void {
    const run = this.get(id);
    if (!run) return;
    const usage: RunUsage = {
      ...run.usage,
      browser_seconds: roundSeconds((run.usage.browser_seconds ?? 0) + seconds),
      cost_usd: addCost(run.usage.cost_usd, cost),
    };
    this.sql.exec("UPDATE runs SET usage = ? WHERE id = ?", JSON.stringify(usage), id);
  }

  /** The newest run that started (browser time after a run ended is charged to it). */
  latestStarted(): Run | null {
    const row = this.sql
      .exec<RunRow>("SELECT * FROM runs WHERE status != 'queued' ORDER BY ord DESC LIMIT 1")
      .toArray()[0];
    return row ? toRun(this.sql, row) : null;
  }

  /** Opens a run's cost at $0 when its model has a price (it stays null, unknown, otherwise). */
  openCost(id: string, priced: boolean): void {
    const run = this.get(id);
    if (!run || run.usage.total_tokens > 0) return;
    const usage: RunUsage = { ...run.usage, cost_usd: priced ? 0 : null };
    this.sql.exec("UPDATE runs SET usage = ? WHERE id = ?", JSON.stringify(usage), id);
  }

  saveRetries(id: string, retries: RetryCounters): void {
    this.sql.exec("UPDATE runs SET retries = ? WHERE id = ?", JSON.stringify(retries), id);
  }

  requestCancel(id: string): void {
    this.sql.exec("UPDATE runs SET cancel_requested = 1 WHERE id = ?", id);
  }

  /** Ends a run with its outcome (an output of any size: past a cell it is split across rows). */
  finish(
    id: string,
    status: "succeeded" | "failed" | "cancelled",
    output: unknown,
    error: Run["error"] = null,
  ) {
    this.sql.exec(
      "UPDATE runs SET status = ?, finished_at = ?, output = ?, error = ? WHERE id = ?",
      status,
      Date.now(),
      output === undefined ? null : packValue(this.sql, output),
      error ? JSON.stringify(error) : null,
      id,
    );
  }

  /** Tokens and cost of every started run of the conversation (cost null if any run's is unknown). */
  totalUsage(): RunUsage {
    const rows = this.sql
      .exec<{ usage: string }>("SELECT usage FROM runs WHERE status != 'queued'")
      .toArray();
    return rows.reduce<RunUsage>(
      (acc, r) => {
        const u = parseUsage(r.usage);
        const browser = (acc.browser_seconds ?? 0) + (u.browser_seconds ?? 0);
        return {
          ...addUsage(acc, u),
          ...(browser > 0 ? { browser_seconds: roundSeconds(browser) } : {}),
          cost_usd: addCost(acc.cost_usd, u.cost_usd),
        };
      },
      { ...ZERO_USAGE, cost_usd: 0 },
    );
  }
}

function toRun(sql: SqlStorage, r: RunRow): Run {
  return {
    id: r.id,
    status: r.status as RunStatus,
    content: r.content,
    idempotency_key: r.idempotency_key,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    steps: r.steps,
    usage: parseUsage(r.usage),
    output: r.output === null ? null : unpackValue(sql, r.output),
    error: r.error === null ? null : (JSON.parse(r.error) as Run["error"]),
    cancel_requested: r.cancel_requested === 1,
    retries: JSON.parse(r.retries) as RetryCounters,
    start_seq: r.start_seq,
  };
}

/** The sub-agent lines with `usage` added to `agent`'s (created at zero, with the run's cost so far unknown). */
function withLine(
  lines: SubAgentUsage[],
  agent: SubAgentRef,
  usage: Usage,
  cost: number | null,
  step: boolean,
): SubAgentUsage[] {
  const old = lines.find((l) => l.id === agent.id) ?? { ...agent, steps: 0, ...ZERO_USAGE, cost_usd: 0 };
  const line: SubAgentUsage = {
    ...old,
    ...addUsage(old, usage),
    cost_usd: addCost(old.cost_usd, cost),
    steps: old.steps + (step ? 1 : 0),
  };
  return lines.some((l) => l.id === agent.id)
    ? lines.map((l) => (l.id === agent.id ? line : l))
    : [...lines, line];
}

/** Browser seconds to the millisecond. */
const roundSeconds = (s: number) => Math.round(s * 1000) / 1000;

/** A stored usage record; rows written before costs existed have an unknown (null) cost. */
function parseUsage(raw: string): RunUsage {
  const u = JSON.parse(raw) as Usage & { cost_usd?: number | null };
  return { ...u, cost_usd: u.cost_usd ?? null };
}
