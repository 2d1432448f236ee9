/** The workspace's own record (id, name, creation time): one row, written once by `init`. */

/** A workspace as the API shows it. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: number;
}

/** Creates the workspace record table: the object's schema steps call it. */
export function createWorkspaceTable(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS workspace (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL)",
  );
}

/** Reads and creates the workspace's one record. */
export class WorkspaceRecordStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Creates the record (idempotent: an existing one is returned unchanged). */
  init(id: string, name: string): WorkspaceRecord {
    const existing = this.get();
    if (existing) return existing;
    const created_at = Date.now();
    this.sql.exec("INSERT INTO workspace (id, name, created_at) VALUES (?, ?, ?)", id, name, created_at);
    return { id, name, created_at };
  }

  /** The record, or null before `init`. */
  get(): WorkspaceRecord | null {
    return (
      this.sql
        .exec<{ id: string; name: string; created_at: number }>("SELECT * FROM workspace")
        .toArray()[0] ?? null
    );
  }
}
