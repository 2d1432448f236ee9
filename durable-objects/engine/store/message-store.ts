/**
 * The conversation's messages in OpenAI chat format, one row each in SQLite. This is both
 * what `GET /v1/conversations/{id}` shows and the checkpoint the loop resumes from.
 */

import type { ChatMessage } from "../model/model-types";
import { ensureLargeValueTable, packValue, unpackValue } from "./large-values";

/** A stored message with its position and run. */
export interface StoredMessage {
  id: number;
  run_id: string | null;
  message: ChatMessage;
  at: number;
}

interface MessageRow extends Record<string, SqlStorageValue> {
  id: number;
  run_id: string | null;
  data: string;
  at: number;
}

const COLUMNS = "id, run_id, data, at";
/** Rows read per query when paging through messages. */
const PAGE = 1_000;

/**
 * Reads and appends conversation messages. A store has a scope: "" is the conversation itself,
 * a sub-agent keeps its own context under its own scope in the same table.
 */
/** Creates the messages table (and the large-value table it uses): the object's schema steps call it. */
export function createMessageTables(sql: SqlStorage): void {
  ensureLargeValueTable(sql);
  sql.exec(`CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL DEFAULT '', run_id TEXT, role TEXT NOT NULL,
    tool_call_id TEXT, data TEXT NOT NULL, at INTEGER NOT NULL)`);
  sql.exec("CREATE INDEX IF NOT EXISTS messages_scope ON messages (scope, id)");
  sql.exec("CREATE INDEX IF NOT EXISTS messages_tool_call ON messages (tool_call_id)");
}

export class MessageStore {
  constructor(
    private readonly sql: SqlStorage,
    readonly scope = "",
  ) {}

  /** The same table seen through another scope. */
  scoped(scope: string): MessageStore {
    return new MessageStore(this.sql, scope);
  }

  /** Appends one message (a checkpoint: the loop resumes from what is here). */
  append(runId: string | null, message: ChatMessage): StoredMessage {
    const at = Date.now();
    const toolCallId = message.role === "tool" ? message.tool_call_id : null;
    const row = this.sql
      .exec<{ id: number }>(
        "INSERT INTO messages (scope, run_id, role, tool_call_id, data, at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        this.scope,
        runId,
        message.role,
        toolCallId,
        packValue(this.sql, message),
        at,
      )
      .one();
    return { id: row.id, run_id: runId, message, at };
  }

  /** One page: up to `limit` messages with id greater than `afterId`, oldest first. */
  page(afterId: number, limit: number): StoredMessage[] {
    return this.query("WHERE scope = ? AND id > ? ORDER BY id LIMIT ?", this.scope, afterId, limit);
  }

  /** Every message with id greater than `afterId`, oldest first, read a page at a time. */
  *after(afterId = 0): Generator<StoredMessage> {
    let cursor = afterId;
    for (;;) {
      const rows = this.page(cursor, PAGE);
      for (const m of rows) yield m;
      if (rows.length < PAGE) return;
      cursor = rows[rows.length - 1].id;
    }
  }

  /** Every message with id greater than `afterId`, oldest first (all of them: no cap). */
  list(afterId = 0): StoredMessage[] {
    return [...this.after(afterId)];
  }

  /** One page going back: up to `limit` messages with id less than `beforeId`, newest first. */
  pageBefore(beforeId: number, limit: number): StoredMessage[] {
    return this.query("WHERE scope = ? AND id < ? ORDER BY id DESC LIMIT ?", this.scope, beforeId, limit);
  }

  /** The newest `limit` messages, oldest first (for views that show a bounded tail). */
  newest(limit: number): StoredMessage[] {
    return this.query("WHERE scope = ? ORDER BY id DESC LIMIT ?", this.scope, limit).reverse();
  }

  /** How many of this scope's messages of a run have a role (e.g. reminders, assistant turns). */
  countOf(runId: string, role: ChatMessage["role"]): number {
    return this.sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM messages WHERE scope = ? AND run_id = ? AND role = ?",
        this.scope,
        runId,
        role,
      )
      .one().n;
  }

  /** How many of a run's messages of a role begin with `prefix` (a kind of note the loop sent). */
  countStartingWith(runId: string, role: ChatMessage["role"], prefix: string): number {
    const rows = this.query(
      "WHERE scope = ? AND run_id = ? AND role = ? ORDER BY id",
      this.scope,
      runId,
      role,
    );
    return rows.filter((m) => typeof m.message.content === "string" && m.message.content.startsWith(prefix))
      .length;
  }

  /** The newest assistant message of a run, if any. */
  lastAssistant(runId: string): StoredMessage | null {
    return this.recentAssistant(runId, 1)[0] ?? null;
  }

  /** The id of the run's newest message of a role (0 when it has none). */
  lastIdOf(runId: string, role: ChatMessage["role"]): number {
    return (
      this.sql
        .exec<{ id: number | null }>(
          "SELECT MAX(id) AS id FROM messages WHERE scope = ? AND run_id = ? AND role = ?",
          this.scope,
          runId,
          role,
        )
        .one().id ?? 0
    );
  }

  /** The run's latest assistant messages, newest first. */
  recentAssistant(runId: string, limit: number): StoredMessage[] {
    return this.query(
      "WHERE scope = ? AND run_id = ? AND role = 'assistant' ORDER BY id DESC LIMIT ?",
      this.scope,
      runId,
      limit,
    );
  }

  /** Tool call ids that already have a result message. */
  answeredToolCalls(ids: string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const marks = ids.map(() => "?").join(",");
    const rows = this.sql
      .exec<{ tool_call_id: string }>(
        `SELECT tool_call_id FROM messages WHERE scope = ? AND tool_call_id IN (${marks})`,
        this.scope,
        ...ids,
      )
      .toArray();
    return new Set(rows.map((r) => r.tool_call_id));
  }

  /** The result messages' contents of the calls that have one, by tool call id. */
  toolResults(ids: string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const marks = ids.map(() => "?").join(",");
    const rows = this.query(
      `WHERE scope = ? AND role = 'tool' AND tool_call_id IN (${marks})`,
      this.scope,
      ...ids,
    );
    const out = new Map<string, string>();
    for (const { message } of rows)
      if (message.role === "tool") out.set(message.tool_call_id, message.content);
    return out;
  }

  /** Number of messages in this scope. */
  count(): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE scope = ?", this.scope)
      .one().n;
  }

  private query(tail: string, ...params: SqlStorageValue[]): StoredMessage[] {
    return this.sql
      .exec<MessageRow>(`SELECT ${COLUMNS} FROM messages ${tail}`, ...params)
      .toArray()
      .map((r) => ({
        id: r.id,
        run_id: r.run_id,
        message: unpackValue<ChatMessage>(this.sql, r.data),
        at: r.at,
      }));
  }
}
