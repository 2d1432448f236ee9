/**
 * Steering messages in SQLite: user messages sent with `steer: true` while a run is active. They
 * wait here until the loop's next model turn takes them into the run (in the order they came);
 * those a run did not take before it ended become runs of their own. Rows are kept after use so
 * an idempotency key stays answered.
 */

/** One steering message. */
export interface SteerMessage {
  id: string;
  run_id: string;
  content: string;
  idempotency_key: string | null;
  status: "queued" | "applied" | "requeued";
  at: number;
}

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  run_id: string;
  content: string;
  idempotency_key: string | null;
  status: string;
  at: number;
}

/** Creates the steering queue table: the object's schema steps call it. */
export function createSteerTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS steering (
    ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, run_id TEXT NOT NULL, content TEXT NOT NULL,
    idempotency_key TEXT UNIQUE, status TEXT NOT NULL DEFAULT 'queued', at INTEGER NOT NULL)`);
}

/** The `steering` table. */
export class SteerQueue {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues a message for a run. */
  push(runId: string, content: string, idempotencyKey: string | null): SteerMessage {
    const id = `steer_${crypto.randomUUID()}`;
    this.sql.exec(
      "INSERT INTO steering (id, run_id, content, idempotency_key, at) VALUES (?, ?, ?, ?, ?)",
      id,
      runId,
      content,
      idempotencyKey,
      Date.now(),
    );
    return { id, run_id: runId, content, idempotency_key: idempotencyKey, status: "queued", at: Date.now() };
  }

  /** The message sent with this idempotency key, if any. */
  byKey(key: string): SteerMessage | null {
    const row = this.sql.exec<Row>("SELECT * FROM steering WHERE idempotency_key = ?", key).toArray()[0];
    return row ? toMessage(row) : null;
  }

  /** Whether a run has messages waiting. */
  has(runId: string): boolean {
    return (
      this.sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM steering WHERE run_id = ? AND status = 'queued'",
          runId,
        )
        .one().n > 0
    );
  }

  /** Takes a run's waiting messages, oldest first, marking them with what became of them. */
  take(runId: string, as: "applied" | "requeued" = "applied"): SteerMessage[] {
    const rows = this.sql
      .exec<Row>("SELECT * FROM steering WHERE run_id = ? AND status = 'queued' ORDER BY ord", runId)
      .toArray();
    if (rows.length)
      this.sql.exec("UPDATE steering SET status = ? WHERE run_id = ? AND status = 'queued'", as, runId);
    return rows.map(toMessage);
  }
}

function toMessage(r: Row): SteerMessage {
  return {
    id: r.id,
    run_id: r.run_id,
    content: r.content,
    idempotency_key: r.idempotency_key,
    status: r.status as SteerMessage["status"],
    at: r.at,
  };
}
