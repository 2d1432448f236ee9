/**
 * Which tool results have been cleared from a scope's context, and the stub that stands in for
 * each: one SQLite row per cleared message, so a run woken after an eviction or a restart builds
 * the same context, byte for byte, as before it.
 */

/** A cleared tool result: the message it was, and the text the model sees instead. */
export interface ClearedResult {
  messageId: number;
  stub: string;
}

interface Row extends Record<string, SqlStorageValue> {
  message_id: number;
  stub: string;
}

/** Reads and records cleared results; a store has a message scope, like MessageStore. */
export class ClearedResults {
  constructor(
    private readonly sql: SqlStorage,
    readonly scope = "",
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS cleared_results (
      scope TEXT NOT NULL, message_id INTEGER NOT NULL, stub TEXT NOT NULL, at INTEGER NOT NULL,
      PRIMARY KEY (scope, message_id))`);
  }

  /** The same table seen through another scope (a sub-agent's context). */
  scoped(scope: string): ClearedResults {
    return new ClearedResults(this.sql, scope);
  }

  /** The stubs of cleared messages with id greater than `afterId`, by message id (all of them). */
  stubs(afterId = 0): Map<number, string> {
    const rows = this.sql
      .exec<Row>(
        "SELECT message_id, stub FROM cleared_results WHERE scope = ? AND message_id > ? ORDER BY message_id",
        this.scope,
        afterId,
      )
      .toArray();
    return new Map(rows.map((r) => [r.message_id, r.stub]));
  }

  /** Records one clearing step's results (a message cleared once keeps its first stub). */
  add(results: readonly ClearedResult[]): void {
    const at = Date.now();
    for (const r of results)
      this.sql.exec(
        "INSERT OR IGNORE INTO cleared_results (scope, message_id, stub, at) VALUES (?, ?, ?, ?)",
        this.scope,
        r.messageId,
        r.stub,
        at,
      );
  }
}
