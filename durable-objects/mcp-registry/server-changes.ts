/**
 * How registering and changing an MCP server changes its row: a new server starts unconnected; a
 * new URL or client forgets its OAuth state, and a URL on another origin without its headers or
 * OAuth client given again drops the stored ones (they were given for the old host only).
 */
import { sameOrigin } from "../../schemas/credentials";
import type { CreateMcpServer, UpdateMcpServer } from "../../schemas/mcp";
import type { Sealer } from "./oauth-provider";
import { sealHeaders, sealOAuth } from "./server-credentials";
import type { ServerRow } from "./server-store";

/** The row of a newly registered server, its secrets sealed; not connected yet. */
export async function newServerRow(
  id: string,
  body: CreateMcpServer,
  sealer: Sealer,
  now: number,
): Promise<ServerRow> {
  return {
    id,
    name: body.name,
    url: body.url,
    headers: body.headers ? await sealHeaders(sealer, id, body.headers) : null,
    header_names: Object.keys(body.headers ?? {}),
    allowed_tools: body.allowed_tools ?? null,
    status: "error",
    error: null,
    tools: null,
    oauth: await sealOAuth(sealer, id, body.oauth ?? null),
    approval: body.approval ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** A changed server row and what the change asks for. */
export interface ServerChange {
  row: ServerRow;
  /** The URL, headers or OAuth client changed: connect again to read the tools. */
  reconnect: boolean;
  /** The URL or OAuth client changed: the stored OAuth state is forgotten. */
  forgetOAuth: boolean;
  /** Stored headers or OAuth client were dropped because the URL moved to another origin. */
  credentialsCleared: boolean;
}

/** The row with a patch applied, updated at `now`, its new secrets sealed. */
export async function changedServerRow(
  row: ServerRow,
  patch: UpdateMcpServer,
  sealer: Sealer,
  now: number,
): Promise<ServerChange> {
  const id = row.id;
  const next: ServerRow = { ...row, updated_at: now };
  const moved = patch.url !== undefined && !sameOrigin(patch.url, row.url);
  const dropHeaders = moved && patch.headers === undefined && row.headers !== null;
  const dropOAuth = moved && patch.oauth === undefined && row.oauth !== null;
  if (dropHeaders) {
    next.headers = null;
    next.header_names = [];
  }
  if (dropOAuth) next.oauth = null;
  if (patch.name) next.name = patch.name;
  if (patch.allowed_tools !== undefined) next.allowed_tools = patch.allowed_tools;
  if (patch.approval !== undefined) next.approval = patch.approval;
  if (patch.headers !== undefined) {
    next.headers = patch.headers ? await sealHeaders(sealer, id, patch.headers) : null;
    next.header_names = Object.keys(patch.headers ?? {});
  }
  if (patch.oauth !== undefined) next.oauth = await sealOAuth(sealer, id, patch.oauth);
  const urlChanged = Boolean(patch.url && patch.url !== row.url);
  if (urlChanged) next.url = patch.url!;
  return {
    row: next,
    reconnect: urlChanged || patch.headers !== undefined || patch.oauth !== undefined,
    forgetOAuth: urlChanged || patch.oauth !== undefined,
    credentialsCleared: dropHeaders || dropOAuth,
  };
}
