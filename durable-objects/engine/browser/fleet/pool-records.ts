/**
 * What the browser fleet keeps in its Durable Object's SQLite: the sessions it holds (to reconnect
 * after a restart), which conversation's context lives on which session, the browser time used
 * per UTC day (the daily budget) and per conversation (metering, until it is reported), and when
 * the last browser was launched (the launch pace).
 */

/** A session row. */
export type SessionRow = {
  session_id: string;
  launched_at: number;
  /** Up to when the session's time has been counted. */
  ticked_at: number;
  /** The conversation that last used the session: time with no context open is charged to it. */
  last_conv: string | null;
};

/** A context row: a conversation's isolated browser context in a session. */
export type ContextRow = {
  conv: string;
  session_id: string;
  context_id: string;
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Creates the fleet's pool tables: the object's schema steps call it. */
export function createPoolTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS fleet_sessions (session_id TEXT PRIMARY KEY, launched_at INTEGER NOT NULL,
        ticked_at INTEGER NOT NULL, last_conv TEXT);
      CREATE TABLE IF NOT EXISTS fleet_contexts (conv TEXT PRIMARY KEY, session_id TEXT NOT NULL, context_id TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS fleet_days (day TEXT PRIMARY KEY, ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS fleet_meter (conv TEXT PRIMARY KEY, ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS fleet_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
}

/** SQLite tables of the fleet. */
export class PoolRecords {
  constructor(private readonly sql: SqlStorage) {}

  sessions(): SessionRow[] {
    return this.sql.exec<SessionRow>("SELECT * FROM fleet_sessions").toArray();
  }

  addSession(sessionId: string, at: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO fleet_sessions (session_id, launched_at, ticked_at, last_conv) VALUES (?, ?, ?, NULL)",
      sessionId,
      at,
      at,
    );
  }

  /** Records that a launch starts now (the pace of launches counts from here). */
  markLaunch(at: number): void {
    this.setMeta("last_launch_at", at);
    this.setMeta("launches", this.launches() + 1);
  }

  removeSession(sessionId: string): void {
    this.sql.exec("DELETE FROM fleet_sessions WHERE session_id = ?", sessionId);
    this.sql.exec("DELETE FROM fleet_contexts WHERE session_id = ?", sessionId);
  }

  contexts(): ContextRow[] {
    return this.sql.exec<ContextRow>("SELECT * FROM fleet_contexts").toArray();
  }

  setContext(row: ContextRow): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO fleet_contexts (conv, session_id, context_id) VALUES (?, ?, ?)",
      row.conv,
      row.session_id,
      row.context_id,
    );
    this.sql.exec("UPDATE fleet_sessions SET last_conv = ? WHERE session_id = ?", row.conv, row.session_id);
  }

  removeContext(conv: string): void {
    this.sql.exec("DELETE FROM fleet_contexts WHERE conv = ?", conv);
  }

  /**
   * Counts a session's time up to `now`: into the day's total and, split evenly, into the meters
   * of the conversations with a context on it (else of the one that used it last).
   */
  tick(sessionId: string, convs: string[], now: number): void {
    const row = this.sql
      .exec<SessionRow>("SELECT * FROM fleet_sessions WHERE session_id = ?", sessionId)
      .toArray()[0];
    if (!row) return;
    const elapsed = Math.max(0, now - row.ticked_at);
    this.sql.exec("UPDATE fleet_sessions SET ticked_at = ? WHERE session_id = ?", now, sessionId);
    if (elapsed === 0) return;
    this.sql.exec(
      "INSERT INTO fleet_days (day, ms) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET ms = ms + excluded.ms",
      day(now),
      elapsed,
    );
    const charged = convs.length > 0 ? convs : row.last_conv ? [row.last_conv] : [];
    for (const conv of charged) this.addToMeter(conv, elapsed / charged.length);
  }

  /** Browser time used on the UTC day of `now`, in ms. */
  usedOn(now: number): number {
    return (
      this.sql.exec<{ ms: number }>("SELECT ms FROM fleet_days WHERE day = ?", day(now)).toArray()[0]?.ms ?? 0
    );
  }

  /** Sets a day's used time (a clock seam for tests of the budget; also a repair tool). */
  setUsed(now: number, ms: number): void {
    this.sql.exec("INSERT OR REPLACE INTO fleet_days (day, ms) VALUES (?, ?)", day(now), ms);
  }

  /** A conversation's metered browser time not yet reported, and resets it. */
  drainMeter(conv: string): number {
    const ms =
      this.sql.exec<{ ms: number }>("SELECT ms FROM fleet_meter WHERE conv = ?", conv).toArray()[0]?.ms ?? 0;
    this.sql.exec("DELETE FROM fleet_meter WHERE conv = ?", conv);
    return ms;
  }

  /** Adds time to a conversation's meter (a tick's share, or time whose report did not arrive). */
  addToMeter(conv: string, ms: number): void {
    this.sql.exec(
      "INSERT INTO fleet_meter (conv, ms) VALUES (?, ?) ON CONFLICT(conv) DO UPDATE SET ms = ms + excluded.ms",
      conv,
      ms,
    );
  }

  /** Conversations with metered time not yet reported. */
  meteredConvs(): string[] {
    return this.sql
      .exec<{ conv: string }>("SELECT conv FROM fleet_meter WHERE ms > 0")
      .toArray()
      .map((r) => r.conv);
  }

  lastLaunchAt(): number {
    return this.getMeta<number>("last_launch_at") ?? 0;
  }

  /** Browsers this fleet has launched, ever. */
  launches(): number {
    return this.getMeta<number>("launches") ?? 0;
  }

  /** Saves a conversation's settings for the fleet's alarm (which closes its context when idle). */
  setRef(conv: string, ref: unknown): void {
    this.setMeta(`ref:${conv}`, ref);
  }

  ref<T>(conv: string): T | null {
    return this.getMeta<T>(`ref:${conv}`);
  }

  forgetConv(conv: string): void {
    this.sql.exec("DELETE FROM fleet_meta WHERE key = ?", `ref:${conv}`);
    this.removeContext(conv);
  }

  private getMeta<T>(key: string): T | null {
    const row = this.sql
      .exec<{ value: string }>("SELECT value FROM fleet_meta WHERE key = ?", key)
      .toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  private setMeta(key: string, value: unknown): void {
    this.sql.exec("INSERT OR REPLACE INTO fleet_meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));
  }
}
