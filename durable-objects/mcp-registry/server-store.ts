/**
 * The registry's SQLite rows: one per MCP server (its settings, sealed headers, last status and
 * cached tool list) and one per server's OAuth state (client registration, tokens, the PKCE
 * verifier and state of a sign-in in progress, discovery results). Secrets are sealed with the
 * secret box before they are written; this module only stores what it is given.
 */

import type { ApprovalRule } from "../../schemas/approvals";
import type { McpServerStatus } from "../../schemas/mcp";
import type { McpToolInfo } from "../engine/mcp/mcp-types";
import { addColumn } from "../engine/store/migrations";

/** A server's row. */
export interface ServerRow {
  id: string;
  name: string;
  url: string;
  /** Sealed JSON of the headers, or null. */
  headers: string | null;
  header_names: string[];
  allowed_tools: string[] | null;
  status: McpServerStatus;
  error: string | null;
  tools: McpToolInfo[] | null;
  /** OAuth settings: client id, scope, sealed secret. */
  oauth: { client_id?: string; scope?: string; client_secret?: string } | null;
  /** The approval default of the server's tools; null = allow. */
  approval: ApprovalRule | null;
  created_at: number;
  updated_at: number;
}

/** A server's OAuth state (sealed values are base64 strings). */
export interface OAuthRow {
  server_id: string;
  /** Sealed JSON of the client information (registered or configured). */
  client: string | null;
  /** Sealed JSON of the tokens. */
  tokens: string | null;
  expires_at: number | null;
  /** Sealed PKCE code verifier of the sign-in in progress. */
  verifier: string | null;
  /** The `state` of the sign-in in progress. */
  state: string | null;
  redirect_uri: string | null;
  /** JSON of the SDK's discovery state (public metadata). */
  discovery: string | null;
  auth_url: string | null;
  /** RFC 9728 metadata URL the server named in its 401 (`WWW-Authenticate: … resource_metadata=`). */
  resource_metadata: string | null;
}

/** MCP servers one workspace may hold (every run connects to, or reads the cached tools of, each). */
export const MAX_MCP_SERVERS = 50;

const JSON_COLUMNS = ["header_names", "allowed_tools", "tools", "oauth"] as const;

/**
 * Creates the registry's tables: the object's schema steps call it. Servers stored before they had
 * an approval default get the column (null = allow).
 */
export function createServerTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS mcp_servers (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
      url TEXT NOT NULL, headers TEXT, header_names TEXT NOT NULL, allowed_tools TEXT, status TEXT NOT NULL,
      error TEXT, tools TEXT, oauth TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS mcp_oauth (server_id TEXT PRIMARY KEY, client TEXT, tokens TEXT,
      expires_at INTEGER, verifier TEXT, state TEXT, redirect_uri TEXT, discovery TEXT, auth_url TEXT,
      resource_metadata TEXT);
    CREATE INDEX IF NOT EXISTS mcp_oauth_state ON mcp_oauth (state);`);
  addColumn(sql, "mcp_servers", "approval", "TEXT");
}

/** Typed access to the registry's tables. */
export class ServerStore {
  constructor(private readonly sql: SqlStorage) {}

  list(): ServerRow[] {
    return this.sql.exec("SELECT * FROM mcp_servers ORDER BY name").toArray().map(toServer);
  }

  get(id: string): ServerRow | null {
    const row = this.sql.exec("SELECT * FROM mcp_servers WHERE id = ?", id).toArray()[0];
    return row ? toServer(row) : null;
  }

  /** How many servers are registered. */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_servers").one().n;
  }

  byName(name: string): ServerRow | null {
    const row = this.sql.exec("SELECT * FROM mcp_servers WHERE name = ?", name).toArray()[0];
    return row ? toServer(row) : null;
  }

  /** Inserts or replaces a server's row. */
  put(row: ServerRow): void {
    const values = { ...row } as Record<string, unknown>;
    for (const k of JSON_COLUMNS) values[k] = row[k] === null ? null : JSON.stringify(row[k]);
    this.sql.exec(
      `INSERT OR REPLACE INTO mcp_servers (id, name, url, headers, header_names, allowed_tools, status, error,
        tools, oauth, approval, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...[
        "id",
        "name",
        "url",
        "headers",
        "header_names",
        "allowed_tools",
        "status",
        "error",
        "tools",
        "oauth",
        "approval",
        "created_at",
        "updated_at",
      ].map((k) => values[k] as SqlStorageValue),
    );
  }

  delete(id: string): boolean {
    this.sql.exec("DELETE FROM mcp_oauth WHERE server_id = ?", id);
    return this.sql.exec("DELETE FROM mcp_servers WHERE id = ?", id).rowsWritten > 0;
  }

  oauth(serverId: string): OAuthRow {
    const row = this.sql.exec("SELECT * FROM mcp_oauth WHERE server_id = ?", serverId).toArray()[0];
    return (
      (row as unknown as OAuthRow | undefined) ?? {
        server_id: serverId,
        client: null,
        tokens: null,
        expires_at: null,
        verifier: null,
        state: null,
        redirect_uri: null,
        discovery: null,
        auth_url: null,
        resource_metadata: null,
      }
    );
  }

  /** Updates some OAuth columns of a server. */
  patchOAuth(serverId: string, patch: Partial<Omit<OAuthRow, "server_id">>): void {
    const row = { ...this.oauth(serverId), ...patch };
    this.sql.exec(
      `INSERT OR REPLACE INTO mcp_oauth (server_id, client, tokens, expires_at, verifier, state, redirect_uri,
        discovery, auth_url, resource_metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      serverId,
      row.client,
      row.tokens,
      row.expires_at,
      row.verifier,
      row.state,
      row.redirect_uri,
      row.discovery,
      row.auth_url,
      row.resource_metadata,
    );
  }

  /** Forgets everything OAuth knew about a server (its URL or client changed). */
  clearOAuth(serverId: string): void {
    this.sql.exec("DELETE FROM mcp_oauth WHERE server_id = ?", serverId);
  }

  /** The server whose sign-in carries this state. */
  serverForState(state: string): string | null {
    const row = this.sql
      .exec<{ server_id: string }>("SELECT server_id FROM mcp_oauth WHERE state = ?", state)
      .toArray()[0];
    return row?.server_id ?? null;
  }
}

function toServer(raw: Record<string, SqlStorageValue>): ServerRow {
  const row = { ...raw } as Record<string, unknown>;
  for (const k of JSON_COLUMNS) row[k] = raw[k] === null ? null : JSON.parse(raw[k] as string);
  row.approval ??= null;
  return row as unknown as ServerRow;
}
