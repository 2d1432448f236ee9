/**
 * The workspace's index of what lives in other objects: its conversations (each a
 * ConversationObject) and its jobs (each a JobObject), so they can be listed and scoped.
 */
import { cursorPosition, INVALID_CURSOR, listCursor } from "../../schemas/list-cursor";
import { ok, type RpcResult } from "../engine/rpc-result";
import { addColumn } from "../engine/store/migrations";

/** A conversation entry of the workspace's index. */
export interface ConversationEntry {
  id: string;
  created_at: number;
}

/** A page of the index: its entries, whether more follow, and the cursor of its last entry. */
export interface IndexPage<T> {
  ids: T[];
  hasMore: boolean;
  lastCursor: string | null;
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
   * Conversations newest first, `limit` at a time after the `cursor` position; with `q`, only
   * those whose title contains it (case-insensitive for ASCII letters).
   */
  listConversations(
    limit: number,
    cursor: string | null,
    q: string | null = null,
  ): RpcResult<IndexPage<ConversationEntry>> {
    const after =
      cursor === null ? null : cursorPosition(cursor, (id) => this.createdAt("conversations", id));
    if (cursor !== null && !after) return INVALID_CURSOR;
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (after) {
      where.push("(created_at, id) < (?, ?)");
      args.push(after.key, after.id);
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
    return ok(indexPage(rows, limit, (r) => r));
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

  /** Job ids oldest first, `limit` at a time after the `cursor` position. */
  listJobs(limit: number, cursor: string | null): RpcResult<IndexPage<string>> {
    const after = cursor === null ? null : cursorPosition(cursor, (id) => this.createdAt("jobs", id));
    if (cursor !== null && !after) return INVALID_CURSOR;
    const rows = this.sql
      .exec<{ id: string; created_at: number }>(
        "SELECT id, created_at FROM jobs WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?",
        after?.key ?? -1,
        after?.id ?? "",
        limit + 1,
      )
      .toArray();
    return ok(indexPage(rows, limit, (r) => r.id));
  }

  /** When an indexed conversation or job was created, to read a bare-id cursor. */
  private createdAt(table: "conversations" | "jobs", id: string): number | undefined {
    return this.sql
      .exec<{ created_at: number }>(`SELECT created_at FROM ${table} WHERE id = ?`, id)
      .toArray()[0]?.created_at;
  }
}

/** One page of index rows: the first `limit` of `rows` (which holds one more when there is more). */
function indexPage<T>(
  rows: { id: string; created_at: number }[],
  limit: number,
  entry: (row: { id: string; created_at: number }) => T,
): IndexPage<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    ids: page.map(entry),
    hasMore: rows.length > limit,
    lastCursor: last ? listCursor({ key: last.created_at, id: last.id }) : null,
  };
}
