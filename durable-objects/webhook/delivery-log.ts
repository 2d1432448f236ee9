/**
 * The delivery log: one row per event sent to an endpoint (its body, status and next attempt)
 * and one per attempt (when, the receiver's status, the error, how long it took).
 */
import { cursorPosition, INVALID_CURSOR, listCursor } from "../../schemas/list-cursor";
import type { WebhookDeliveryView, WebhookEvent } from "../../schemas/webhooks";
import { ok, type RpcResult } from "../engine/rpc-result";

/** Deliveries kept per endpoint; older ones are pruned as new ones come. */
export const DELIVERIES_KEPT = 1000;

interface DeliveryRow extends Record<string, SqlStorageValue> {
  ord: number;
  id: string;
  endpoint_id: string;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
}

interface AttemptRow extends Record<string, SqlStorageValue> {
  delivery_id: string;
  attempt: number;
  at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A delivery due for an attempt. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
}

/** Creates the delivery and attempt tables: the object's schema steps call it. */
export function createDeliveryTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS deliveries (ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      endpoint_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);
    CREATE INDEX IF NOT EXISTS deliveries_endpoint ON deliveries (endpoint_id, ord);
    CREATE TABLE IF NOT EXISTS attempts (delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, at INTEGER NOT NULL,
      status_code INTEGER, error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, attempt));`);
}

/** Reads and writes the log. */
export class DeliveryLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues an event for an endpoint, due now; prunes the endpoint's oldest deliveries. */
  add(endpointId: string, event: WebhookEvent, now: number): string {
    const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    this.sql.exec(
      "INSERT INTO deliveries (id, endpoint_id, type, payload, status, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
      id,
      endpointId,
      event.type,
      JSON.stringify(event),
      now,
      now,
    );
    const old = this.sql
      .exec<{ id: string }>(
        "SELECT id FROM deliveries WHERE endpoint_id = ? ORDER BY ord DESC LIMIT -1 OFFSET ?",
        endpointId,
        DELIVERIES_KEPT,
      )
      .toArray();
    for (const o of old) this.forget(o.id);
    return id;
  }

  /** Deliveries whose next attempt is due. */
  due(now: number, limit: number): DueDelivery[] {
    return this.sql
      .exec<DeliveryRow>(
        "SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
        now,
        limit,
      )
      .toArray()
      .map((r) => ({ id: r.id, endpointId: r.endpoint_id, body: r.payload, attempts: r.attempts }));
  }

  /** When the next attempt is due, or null. */
  nextDue(): number | null {
    return this.sql
      .exec<{ t: number | null }>("SELECT MIN(next_attempt_at) AS t FROM deliveries WHERE status = 'pending'")
      .one().t;
  }

  /** Records an attempt and the delivery's state after it. */
  recordAttempt(
    id: string,
    a: Omit<AttemptRow, "delivery_id">,
    next: { status: "pending" | "delivered" | "failed"; nextAttemptAt: number | null },
  ): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO attempts (delivery_id, attempt, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      a.attempt,
      a.at,
      a.status_code,
      a.error,
      a.duration_ms,
    );
    this.sql.exec(
      "UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ? WHERE id = ?",
      next.status,
      a.attempt,
      next.nextAttemptAt,
      id,
    );
  }

  /** An endpoint's deliveries, newest first, `limit` after the `cursor` position (a log order and id). */
  list(
    endpointId: string,
    limit: number,
    cursor: string | null,
  ): RpcResult<{ data: WebhookDeliveryView[]; hasMore: boolean; lastCursor: string | null }> {
    const after = cursor === null ? null : cursorPosition(cursor, (id) => this.order(endpointId, id));
    if (cursor !== null && !after) return INVALID_CURSOR;
    const rows = this.sql
      .exec<DeliveryRow>(
        "SELECT * FROM deliveries WHERE endpoint_id = ? AND ord < ? ORDER BY ord DESC LIMIT ?",
        endpointId,
        after?.key ?? Number.MAX_SAFE_INTEGER,
        limit + 1,
      )
      .toArray();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return ok({
      data: page.map((r) => this.view(r)),
      hasMore: rows.length > limit,
      lastCursor: last ? listCursor({ key: last.ord, id: last.id }) : null,
    });
  }

  /** Where an endpoint's delivery stands in the log, to read a bare-id cursor. */
  private order(endpointId: string, id: string): number | undefined {
    return this.sql
      .exec<{ ord: number }>("SELECT ord FROM deliveries WHERE id = ? AND endpoint_id = ?", id, endpointId)
      .toArray()[0]?.ord;
  }

  /** Drops every delivery of an endpoint. */
  removeEndpoint(endpointId: string): void {
    const ids = this.sql
      .exec<{ id: string }>("SELECT id FROM deliveries WHERE endpoint_id = ?", endpointId)
      .toArray();
    for (const { id } of ids) this.forget(id);
  }

  private forget(id: string): void {
    this.sql.exec("DELETE FROM attempts WHERE delivery_id = ?", id);
    this.sql.exec("DELETE FROM deliveries WHERE id = ?", id);
  }

  private view(r: DeliveryRow): WebhookDeliveryView {
    const attempts = this.sql
      .exec<AttemptRow>("SELECT * FROM attempts WHERE delivery_id = ? ORDER BY attempt", r.id)
      .toArray()
      .map(({ delivery_id: _d, ...a }) => a);
    return {
      id: r.id,
      type: r.type as WebhookDeliveryView["type"],
      status: r.status as WebhookDeliveryView["status"],
      created_at: r.created_at,
      next_attempt_at: r.next_attempt_at,
      attempts,
      payload: JSON.parse(r.payload) as WebhookEvent,
    };
  }
}
