/**
 * The workspace's index of what lives in other objects: its conversations (each a
 * ConversationObject) and its jobs (each a JobObject), so they can be listed and scoped.
 */
import { addColumn } from "../engine/store/migrations";

/** A conversation entry of the workspace's index. */
export interface ConversationEntry {
  id: string;
  created_at: number;
}

/** `q` as a LIKE pattern matching it anywhere, with LIKE's own wildcards escaped. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Creates the index tables: the object's schema steps call it (titles came after the first workspaces). */
export function createIndexTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS conversations_created ON conversations (created_at, id);
    CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);`);
  addColumn(sql, "conversations", "title", "TEXT");
}

/** The conversation and job index tables of one workspace. */
export class WorkspaceIndex {
  constructor(private readonly sql: SqlStorage) {}

  /** Sets the title a conversation is searched by. */
  setConversationTitle(id: string, title: string | null): void {
    this.sql.exec("UPDATE conversations SET title = ? WHERE id = ?", title, id);
  }

  addConversation(id: string, createdAt: number, title: string | null = null): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO conversations (id, created_at, title) VALUES (?, ?, ?)",
      id,
      createdAt,
      title,
    );
  }

  removeConversation(id: string): boolean {
    return this.sql.exec("DELETE FROM conversations WHERE id = ?", id).rowsWritten > 0;
  }

  hasConversation(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM conversations WHERE id = ?", id).toArray().length > 0;
  }

  /**
   * Conversations newest first, `limit` at a time after the `cursor` one; with `q`, only those
   * whose title contains it (case-insensitive for ASCII letters).
   */
  listConversations(
    limit: number,
    cursor: string | null,
    q: string | null = null,
  ): { ids: ConversationEntry[]; hasMore: boolean } {
    const at = cursor
      ? this.sql
          .exec<{ created_at: number }>("SELECT created_at FROM conversations WHERE id = ?", cursor)
          .toArray()[0]
      : null;
    if (cursor && !at) return { ids: [], hasMore: false };
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (at && cursor) {
      where.push("(created_at, id) < (?, ?)");
      args.push(at.created_at, cursor);
    }
    if (q) {
      where.push("title LIKE ? ESCAPE '\\'");
      args.push(containsPattern(q));
    }
    const rows = this.sql
      .exec<{ id: string; created_at: number }>(
        `SELECT id, created_at FROM conversations ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id DESC LIMIT ?`,
        ...args,
        limit + 1,
      )
      .toArray();
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
