/**
 * `/mcp`: Cirrus as an MCP server over Streamable HTTP (POST, GET for the server's stream,
 * DELETE to end a session), authenticated with a workspace key (`Authorization: Bearer sk_…`;
 * the admin token acts on `default`). Each session is one McpSessionObject named inside the
 * key's workspace, so a session id from another workspace reaches nothing.
 */
import { mcpSessionStub } from "../../durable-objects/addresses/mcp-session";
import { Hono } from "hono";
import { randomToken } from "../../durable-objects/engine/tokens";
import { SESSION_HEADER, WORKSPACE_HEADER } from "../../durable-objects/mcp-session/mcp-session-object";
import type { AppEnv } from "../app-env";
import { authenticate } from "../auth";
import { errorBody } from "../errors";

import { MCP_SESSION_ID as SESSION_ID } from "../../durable-objects/addresses/ids";
const app = new Hono<AppEnv>();

const rpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });

app.on(["GET", "POST", "DELETE"], "/mcp", async (c) => {
  const token = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim();
  const principal = token ? await authenticate(c.env, token) : null;
  if (!principal) {
    c.header("www-authenticate", 'Bearer realm="cirrus"');
    return c.json(errorBody("unauthorized", "Send a workspace key as `Authorization: Bearer sk_…`."), 401);
  }
  let sessionId = c.req.header("mcp-session-id");
  if (sessionId !== undefined && !SESSION_ID.test(sessionId))
    return rpcError(404, -32001, "Session not found");
  if (!sessionId) {
    if (c.req.method !== "POST")
      return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    sessionId = `mcps_${randomToken(24)}`;
  }
  const headers = new Headers(c.req.raw.headers);
  headers.delete("authorization");
  headers.set(WORKSPACE_HEADER, principal.workspaceId);
  headers.set(SESSION_HEADER, sessionId);
  const stub = mcpSessionStub(c.env, principal.workspaceId, sessionId);
  return stub.fetch(new Request(c.req.url, { method: c.req.method, headers, body: c.req.raw.body }));
});

export default app;
