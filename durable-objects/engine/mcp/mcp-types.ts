/** Types shared by the MCP client modules and the objects that host them. */

/** A tool as a server lists it (the schema as the server sent it). */
export interface McpToolInfo {
  name: string;
  description: string;
  input_schema: unknown;
}

/** A Streamable HTTP session kept across restarts of the object that opened it. */
export interface SessionRecord {
  session_id: string;
  protocol_version: string | null;
  transport: "streamable_http" | "sse";
}

/** Where sessions are kept (per conversation, keyed by server id). */
export interface SessionStore {
  get(serverId: string): SessionRecord | null;
  set(serverId: string, record: SessionRecord): void;
  clear(serverId: string): void;
}

/** Why a server's tools are not available: `needs_auth`, `unreachable`, … */
export class McpUnavailable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
