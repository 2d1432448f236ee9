/**
 * The conversation's MCP sessions, one per server, in its SQLite: a session outlives the
 * object's memory (hibernation, eviction, a deploy) and is resumed by the next connection.
 */
import type { SessionRecord, SessionStore } from "../engine/mcp/mcp-types";

/** Creates the MCP sessions table: the object's schema steps call it. */
export function createMcpSessionTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS mcp_sessions (server_id TEXT PRIMARY KEY, session_id TEXT NOT NULL,
    protocol_version TEXT, transport TEXT NOT NULL, updated_at INTEGER NOT NULL)`);
}

/** A {@link SessionStore} on the conversation's SQLite. */
export class McpSessions implements SessionStore {
  constructor(private readonly sql: SqlStorage) {}

  get(serverId: string): SessionRecord | null {
    return (
      this.sql
        .exec<{ session_id: string; protocol_version: string | null; transport: SessionRecord["transport"] }>(
          "SELECT session_id, protocol_version, transport FROM mcp_sessions WHERE server_id = ?",
          serverId,
        )
        .toArray()[0] ?? null
    );
  }

  set(serverId: string, r: SessionRecord): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO mcp_sessions (server_id, session_id, protocol_version, transport, updated_at) VALUES (?, ?, ?, ?, ?)",
      serverId,
      r.session_id,
      r.protocol_version,
      r.transport,
      Date.now(),
    );
  }

  clear(serverId: string): void {
    this.sql.exec("DELETE FROM mcp_sessions WHERE server_id = ?", serverId);
  }
}
