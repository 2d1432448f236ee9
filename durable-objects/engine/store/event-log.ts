/**
 * The conversation's append-only event log in SQLite, with live fan-out to listeners.
 * Every event is written before any listener sees it, so a reader that resumes after
 * sequence N gets every later event exactly once, in order.
 */
import type { CirrusEvent, LoggedEvent } from "../../../schemas/events";
import { ensureLargeValueTable, packValue, unpackValue } from "./large-values";

/** Receives events as they are appended. Return false to unsubscribe. */
export type EventListener = (event: LoggedEvent) => boolean | undefined;

interface EventRow extends Record<string, SqlStorageValue> {
  seq: number;
  run_id: string | null;
  data: string;
}

/** Creates the event log table (and the large-value table it uses): the object's schema steps call it. */
export function createEventTables(sql: SqlStorage): void {
  ensureLargeValueTable(sql);
  sql.exec(`CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)`);
  sql.exec("CREATE INDEX IF NOT EXISTS events_run ON events (run_id, seq)");
}

/** Append-only log of a conversation's events. */
export class EventLog {
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly sql: SqlStorage) {}

  /** Writes the event, then hands it to every listener. */
  append(runId: string | null, event: CirrusEvent): LoggedEvent {
    const stamped = { ...event, timestamp: event.timestamp ?? Date.now() } as CirrusEvent;
    const data = packValue(this.sql, stamped);
    const row = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO events (run_id, type, data, at) VALUES (?, ?, ?, ?) RETURNING seq",
        runId,
        stamped.type,
        data,
        Date.now(),
      )
      .one();
    const logged: LoggedEvent = { seq: row.seq, run_id: runId, event: stamped };
    for (const listener of this.listeners) {
      if (listener(logged) === false) this.listeners.delete(listener);
    }
    return logged;
  }

  /** Events after `afterSeq` (optionally only one run's), oldest first. */
  readAfter(afterSeq: number, opts: { runId?: string; limit?: number } = {}): LoggedEvent[] {
    const limit = opts.limit ?? 1000;
    const cursor = opts.runId
      ? this.sql.exec<EventRow>(
          "SELECT seq, run_id, data FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
          opts.runId,
          afterSeq,
          limit,
        )
      : this.sql.exec<EventRow>(
          "SELECT seq, run_id, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
          afterSeq,
          limit,
        );
    return cursor
      .toArray()
      .map((r) => ({ seq: r.seq, run_id: r.run_id, event: unpackValue<CirrusEvent>(this.sql, r.data) }));
  }

  /**
   * Every event after `afterSeq` whose type is in `types` (optionally only one run's), oldest
   * first, read a page at a time so a scan of any length holds only one page in memory.
   */
  *scan(
    afterSeq: number,
    types: readonly string[],
    opts: { runId?: string; pageSize?: number } = {},
  ): Generator<LoggedEvent> {
    const marks = types.map(() => "?").join(",");
    const pageSize = opts.pageSize ?? 500;
    const runFilter = opts.runId === undefined ? "" : "run_id = ? AND ";
    const runParam = opts.runId === undefined ? [] : [opts.runId];
    let cursor = afterSeq;
    for (;;) {
      const rows = this.sql
        .exec<EventRow>(
          `SELECT seq, run_id, data FROM events WHERE ${runFilter}seq > ? AND type IN (${marks}) ORDER BY seq LIMIT ?`,
          ...runParam,
          cursor,
          ...types,
          pageSize,
        )
        .toArray();
      for (const r of rows) {
        cursor = r.seq;
        yield { seq: r.seq, run_id: r.run_id, event: unpackValue<CirrusEvent>(this.sql, r.data) };
      }
      if (rows.length < pageSize) return;
    }
  }

  /** When the newest event was written (epoch ms), or null when there is none. */
  lastAt(): number | null {
    return this.sql.exec<{ a: number | null }>("SELECT MAX(at) AS a FROM events").one().a ?? null;
  }

  /** The highest sequence written so far (0 when empty). */
  lastSeq(): number {
    return this.sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM events").one().s ?? 0;
  }

  /** The newest event of a type, e.g. the last STATE_SNAPSHOT. */
  lastOfType(type: string): LoggedEvent | null {
    const row = this.sql
      .exec<EventRow>("SELECT seq, run_id, data FROM events WHERE type = ? ORDER BY seq DESC LIMIT 1", type)
      .toArray()[0];
    return row
      ? { seq: row.seq, run_id: row.run_id, event: unpackValue<CirrusEvent>(this.sql, row.data) }
      : null;
  }

  /**
   * Replays every stored event after `afterSeq` and then subscribes for live ones, in one
   * synchronous step so no event falls between the replay and the subscription.
   */
  subscribe(afterSeq: number, listener: EventListener, runId?: string): () => void {
    let cursor = afterSeq;
    for (;;) {
      const batch = this.readAfter(cursor, { runId, limit: 500 });
      for (const e of batch) {
        if (listener(e) === false) return () => {};
        cursor = e.seq;
      }
      if (batch.length < 500) break;
    }
    const filtered: EventListener = (e) => (runId && e.run_id !== runId ? true : listener(e));
    this.listeners.add(filtered);
    return () => this.listeners.delete(filtered);
  }

  /** Number of live listeners (for tests and diagnostics). */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
