/**
 * Versioned SQLite schemas for Durable Objects. Each object declares its ordered steps (version 1,
 * 2, 3, … with no gaps) and calls {@link migrate} when it wakes, before it builds its stores: the
 * steps above the version recorded in the object's `_schema` table run in order, each in its own
 * transaction together with the row that records it, so a step that fails leaves the object at the
 * previous version and the next wake tries again. How to add a step: docs/architecture-storage.md.
 */

/** One step of an object's schema. `up` runs once per object, in a transaction. */
export interface Migration {
  /** 1 for the first step, then each next whole number. */
  version: number;
  /** What the step does, as recorded in `_schema` (e.g. `job_runs.attempts`). */
  name: string;
  up(sql: SqlStorage): void;
}

/** The part of `ctx.storage` that migrations need. */
export interface MigratableStorage {
  sql: SqlStorage;
  transactionSync<T>(fn: () => T): T;
}

/** Thrown when an object's step list is malformed (a programming error, caught by the tests). */
export class MigrationListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Checks that `steps` are numbered 1..n in order; returns them for use as a module constant. */
export function migrationSteps(steps: readonly Migration[]): readonly Migration[] {
  steps.forEach((step, i) => {
    if (step.version !== i + 1)
      throw new MigrationListError(`Migration "${step.name}" is version ${step.version}, expected ${i + 1}.`);
  });
  return steps;
}

/** The version recorded in the object's `_schema` table (0 for an object stored before versions). */
export function schemaVersion(sql: SqlStorage): number {
  sql.exec(`CREATE TABLE IF NOT EXISTS _schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
    applied_at INTEGER NOT NULL)`);
  return sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM _schema").one().v ?? 0;
}

/**
 * Brings the object's SQLite to the last of `steps`, running each missing step in order; returns
 * the version it is at. A stored version above the last step (code rolled back after a newer one
 * ran) is left alone: steps only add, so older code still reads the newer shape.
 */
export function migrate(storage: MigratableStorage, steps: readonly Migration[]): number {
  const { sql } = storage;
  let version = schemaVersion(sql);
  for (const step of steps) {
    if (step.version <= version) continue;
    storage.transactionSync(() => {
      step.up(sql);
      sql.exec(
        "INSERT INTO _schema (version, name, applied_at) VALUES (?, ?, ?)",
        step.version,
        step.name,
        Date.now(),
      );
    });
    version = step.version;
  }
  return version;
}

/** The columns of `table` (empty when it does not exist). */
export function columnsOf(sql: SqlStorage, table: string): Set<string> {
  return new Set(
    sql
      .exec<{ name: string }>(`PRAGMA table_info(${table})`)
      .toArray()
      .map((c) => c.name),
  );
}

/**
 * Adds a column unless it is there: steps written for objects stored before versions existed must
 * accept any shape those objects may have reached.
 */
export function addColumn(sql: SqlStorage, table: string, column: string, declaration: string): void {
  if (!columnsOf(sql, table).has(column))
    sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${declaration}`);
}
