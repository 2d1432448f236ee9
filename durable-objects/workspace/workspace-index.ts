/**
 * The workspace's index of what lives in other objects: its conversations (each a
 * ConversationObject) and its jobs (each a JobObject), so they can be listed and scoped.
 */

/** A conversation entry of the workspace's index. */
export interface ConversationEntry {
  id: string;
  created_at: number;
}

/** The conversation and job index tables of one workspace. */
export class WorkspaceIndex {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS conversations_created ON conversations (created_at, id);
      CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);`);
  }

  addConversation(id: string, createdAt: number): void {
    this.sql.exec("INSERT OR IGNORE INTO conversations (id, created_at) VALUES (?, ?)", id, createdAt);
  }

  removeConversation(id: string): boolean {
    return this.sql.exec("DELETE FROM conversations WHERE id = ?", id).rowsWritten > 0;
  }

  hasConversation(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM conversations WHERE id = ?", id).toArray().length > 0;
  }

  /** Conversations newest first, `limit` at a time after the `cursor` one. */
  listConversations(limit: number, cursor: string | null): { ids: ConversationEntry[]; hasMore: boolean } {
    let rows: ConversationEntry[];
    if (cursor) {
      const at = this.sql
        .exec<{ created_at: number }>("SELECT created_at FROM conversations WHERE id = ?", cursor)
        .toArray()[0];
      if (!at) return { ids: [], hasMore: false };
      rows = this.sql
        .exec<{ id: string; created_at: number }>(
          "SELECT id, created_at FROM conversations WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?",
          at.created_at,
          cursor,
          limit + 1,
        )
        .toArray();
    } else {
      rows = this.sql
        .exec<{ id: string; created_at: number }>(
          "SELECT id, created_at FROM conversations ORDER BY created_at DESC, id DESC LIMIT ?",
          limit + 1,
        )
        .toArray();
    }
    return { ids: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  addJob(id: string, createdAt: number): void {
    this.sql.exec("INSERT OR IGNORE INTO jobs (id, created_at) VALUES (?, ?)", id, createdAt);
  }

  removeJob(id: string): boolean {
    return this.sql.exec("DELETE FROM jobs WHERE id = ?", id).rowsWritten > 0;
  }

  hasJob(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0;
  }

  /** Job ids oldest first, `limit` at a time after the `cursor` one. */
  listJobs(limit: number, cursor: string | null): { ids: string[]; hasMore: boolean } {
    const at = cursor
      ? this.sql.exec<{ created_at: number }>("SELECT created_at FROM jobs WHERE id = ?", cursor).toArray()[0]
      : null;
    if (cursor && !at) return { ids: [], hasMore: false };
    const rows = this.sql
      .exec<{ id: string }>(
        "SELECT id FROM jobs WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?",
        at?.created_at ?? -1,
        cursor ?? "",
        limit + 1,
      )
      .toArray();
    return { ids: rows.slice(0, limit).map((r) => r.id), hasMore: rows.length > limit };
  }
}
