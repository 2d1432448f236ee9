/**
 * The conversation's messages in OpenAI chat format, one row each in SQLite. This is both
 * what `GET /v1/conversations/{id}` shows and the checkpoint the loop resumes from.
 */

import { dropValue, ensureLargeValueTable, packValue, unpackValue } from "./large-values";
import type { ChatMessage } from "./model-types";

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

/** Reads and appends conversation messages. */
export class MessageStore {
  constructor(private readonly sql: SqlStorage) {
    ensureLargeValueTable(sql);
    sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT, role TEXT NOT NULL, tool_call_id TEXT,
      data TEXT NOT NULL, at INTEGER NOT NULL)`);
    sql.exec("CREATE INDEX IF NOT EXISTS messages_tool_call ON messages (tool_call_id)");
  }

  /** Appends one message (a checkpoint: the loop resumes from what is here). */
  append(runId: string | null, message: ChatMessage): StoredMessage {
    const at = Date.now();
    const toolCallId = message.role === "tool" ? message.tool_call_id : null;
    const row = this.sql
      .exec<{ id: number }>(
        "INSERT INTO messages (run_id, role, tool_call_id, data, at) VALUES (?, ?, ?, ?, ?) RETURNING id",
        runId,
        message.role,
        toolCallId,
        packValue(this.sql, message),
        at,
      )
      .one();
    return { id: row.id, run_id: runId, message, at };
  }

  /** Messages with id greater than `afterId`, oldest first. */
  list(afterId = 0, limit = 10_000): StoredMessage[] {
    return this.sql
      .exec<MessageRow>(
        "SELECT id, run_id, data, at FROM messages WHERE id > ? ORDER BY id LIMIT ?",
        afterId,
        limit,
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        run_id: r.run_id,
        message: unpackValue<ChatMessage>(this.sql, r.data),
        at: r.at,
      }));
  }

  /** The newest message, if any. */
  last(): StoredMessage | null {
    const r = this.sql
      .exec<MessageRow>("SELECT id, run_id, data, at FROM messages ORDER BY id DESC LIMIT 1")
      .toArray()[0];
    return r
      ? { id: r.id, run_id: r.run_id, message: unpackValue<ChatMessage>(this.sql, r.data), at: r.at }
      : null;
  }

  /** The newest assistant message of a run, if any. */
  lastAssistant(runId: string): StoredMessage | null {
    const r = this.sql
      .exec<MessageRow>(
        "SELECT id, run_id, data, at FROM messages WHERE run_id = ? AND role = 'assistant' ORDER BY id DESC LIMIT 1",
        runId,
      )
      .toArray()[0];
    return r
      ? { id: r.id, run_id: r.run_id, message: unpackValue<ChatMessage>(this.sql, r.data), at: r.at }
      : null;
  }

  /** The run's latest assistant messages, newest first. */
  recentAssistant(runId: string, limit: number): StoredMessage[] {
    return this.sql
      .exec<MessageRow>(
        "SELECT id, run_id, data, at FROM messages WHERE run_id = ? AND role = 'assistant' ORDER BY id DESC LIMIT ?",
        runId,
        limit,
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        run_id: r.run_id,
        message: unpackValue<ChatMessage>(this.sql, r.data),
        at: r.at,
      }));
  }

  /** Tool call ids that already have a result message. */
  answeredToolCalls(ids: string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const marks = ids.map(() => "?").join(",");
    const rows = this.sql
      .exec<{ tool_call_id: string }>(
        `SELECT tool_call_id FROM messages WHERE tool_call_id IN (${marks})`,
        ...ids,
      )
      .toArray();
    return new Set(rows.map((r) => r.tool_call_id));
  }

  /** Total characters stored, a cheap proxy for the context size. */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n;
  }

  /** Removes every message (conversation deletion). */
  clear(): void {
    for (const r of this.sql.exec<{ data: string }>("SELECT data FROM messages").toArray())
      dropValue(this.sql, r.data);
    this.sql.exec("DELETE FROM messages");
  }
}
