/**
 * Durable Object SQLite (`ctx.storage.sql`) for tests in Node, over Node's own SQLite
 * (`node:sqlite`): the same engine and SQL, so the engine's stores run unchanged without workerd.
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { MigratableStorage } from "../../../durable-objects/engine/store/migrations";

type Row = Record<string, SqlStorageValue>;

/** A cursor with the parts of SqlStorageCursor the stores use. */
class Cursor<T extends Row> {
  constructor(private readonly rows: T[]) {}
  toArray(): T[] {
    return this.rows;
  }
  one(): T {
    if (this.rows.length !== 1) throw new Error(`Expected exactly one row, got ${this.rows.length}`);
    return this.rows[0];
  }
  [Symbol.iterator](): IterableIterator<T> {
    return this.rows[Symbol.iterator]();
  }
}

/** An in-memory `ctx.storage` as the stores and migrations use it; each call is one database, like one Durable Object. */
export function memoryStorage(): MigratableStorage {
  const db = new DatabaseSync(":memory:");
  const exec = <T extends Row>(query: string, ...bindings: unknown[]) => {
    const stmt = db.prepare(query);
    const args = bindings as SQLInputValue[];
    if (stmt.columns().length === 0) {
      // Like the platform's, a script without bindings may hold several statements.
      if (args.length === 0) db.exec(query);
      else stmt.run(...args);
      return new Cursor<T>([]);
    }
    return new Cursor<T>((stmt.all(...args) as T[]).map((r) => ({ ...r })));
  };
  const transactionSync = <T>(fn: () => T): T => {
    db.exec("BEGIN");
    try {
      const result = fn();
      db.exec("COMMIT");
      return result;
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  };
  return { sql: { exec, databaseSize: 0 } as unknown as SqlStorage, transactionSync };
}
