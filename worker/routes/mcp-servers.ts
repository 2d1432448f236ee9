/**
 * A workspace's MCP servers (`/v1/mcp/servers`): register, list, change, remove, list tools
 * again, and connect with OAuth. The OAuth callback (`/v1/mcp/oauth/callback`) is a separate
 * app mounted before authentication: the browser returning from the authorization server carries
 * no API key, only the `state` that names the workspace and the sign-in stored there.
 */

import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody } from "../../schemas/api";
import { CredentialsCleared } from "../../schemas/credentials";
import {
  CreateMcpServer,
  McpAuthorization,
  McpServerList,
  McpServerView,
  UpdateMcpServer,
} from "../../schemas/mcp";
import { createApp } from "../app-factory";
import { ApiError, errorBody, unwrap } from "../errors";
import { mcpRegistryStub } from "../stubs";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const IdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, example: "mcp_abc123" }),
});
const errors = { ...commonErrors, 409: json(ErrorBody, "Name taken") };
const tags = ["MCP servers"];
const app = createApp();

/** Refuses `mcp_servers` (of a conversation or job) naming servers the workspace does not have. */
export async function checkMcpServerNames(env: Env, workspaceId: string, names: string[] | null | undefined) {
  if (!names?.length) return;
  const known = new Set((await mcpRegistryStub(env, workspaceId).names()) as string[]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) {
    throw new ApiError(
      400,
      "unknown_mcp_server",
      `No MCP server named ${unknown.join(", ")} in this workspace (registered: ${[...known].join(", ") || "none"}).`,
    );
  }
}

const notFound = (id: string) => new ApiError(404, "not_found", `No MCP server ${id} in this workspace.`);

app.openapi(
  createRoute({
    method: "post",
    path: "/mcp/servers",
    summary: "Register an MCP server; its tools become tools of every conversation of the workspace",
    tags,
    request: { body: jsonBody(CreateMcpServer) },
    responses: {
      201: json(McpServerView, "The server, its status and tools"),
      ...errors,
      409: json(
        ErrorBody,
        "Name taken (`name_taken`), or too many servers (`too_many_mcp_servers`): delete one first",
      ),
    },
  }),
  async (c) => {
    const registry = mcpRegistryStub(c.env, c.get("principal").workspaceId);
    return c.json(unwrap(await registry.create(c.req.valid("json"))) as McpServerView, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/mcp/servers",
    summary: "List the workspace's MCP servers",
    tags,
    responses: { 200: json(McpServerList, "Servers"), ...errors },
  }),
  async (c) => {
    const data = (await mcpRegistryStub(c.env, c.get("principal").workspaceId).list()) as McpServerView[];
    return c.json({ data }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/mcp/servers/{id}",
    summary: "Get an MCP server: status and tools",
    tags,
    request: { params: IdParam },
    responses: { 200: json(McpServerView, "The server"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const server = (await mcpRegistryStub(c.env, c.get("principal").workspaceId).get(
      id,
    )) as McpServerView | null;
    if (!server) throw notFound(id);
    return c.json(server, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/mcp/servers/{id}",
    summary: "Change an MCP server (a new URL, headers or OAuth client connects again)",
    tags,
    request: {
      params: IdParam,
      body: jsonBody(UpdateMcpServer),
    },
    responses: {
      200: json(McpServerView.extend({ credentials_cleared: CredentialsCleared }), "The server"),
      ...errors,
    },
  }),
  async (c) => {
    const registry = mcpRegistryStub(c.env, c.get("principal").workspaceId);
    const view = unwrap(await registry.update(c.req.valid("param").id, c.req.valid("json")));
    return c.json(view as McpServerView & { credentials_cleared: boolean }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/mcp/servers/{id}",
    summary: "Remove an MCP server (and its stored credentials)",
    tags,
    request: { params: IdParam },
    responses: {
      200: deletedResponse("id", "Removed"),
      ...errors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    if (!(await mcpRegistryStub(c.env, c.get("principal").workspaceId).delete(id))) throw notFound(id);
    return c.json({ id, deleted: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/mcp/servers/{id}/refresh",
    summary: "Connect again and list the server's tools",
    tags,
    request: { params: IdParam },
    responses: { 200: json(McpServerView, "The server"), ...errors },
  }),
  async (c) => {
    const registry = mcpRegistryStub(c.env, c.get("principal").workspaceId);
    return c.json(unwrap(await registry.refresh(c.req.valid("param").id)) as McpServerView, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/mcp/servers/{id}/authorize",
    summary: "Start an OAuth sign-in: the URL to open in a browser",
    tags,
    request: { params: IdParam },
    responses: {
      200: json(McpAuthorization, "The authorization URL"),
      422: json(ErrorBody, "OAuth failed"),
      ...errors,
    },
  }),
  async (c) => {
    const { workspaceId } = c.get("principal");
    const origin = new URL(c.req.url).origin;
    const result = await mcpRegistryStub(c.env, workspaceId).authorize(
      c.req.valid("param").id,
      workspaceId,
      origin,
    );
    return c.json(unwrap(result) as z.infer<typeof McpAuthorization>, 200);
  },
);

/** `GET /v1/mcp/oauth/callback`: reached by the browser, authenticated by its `state`. */
export const mcpOAuthCallback = createApp();

const WORKSPACE_IN_STATE = /^([A-Za-z0-9-]{1,64})\.[A-Za-z0-9_-]{16,}$/;

mcpOAuthCallback.get("/v1/mcp/oauth/callback", async (c) => {
  const state = c.req.query("state") ?? "";
  const code = c.req.query("code");
  const wantsHtml = (c.req.header("accept") ?? "").includes("text/html");
  const answer = (status: 200 | 400, body: McpServerView | ReturnType<typeof errorBody>) =>
    wantsHtml ? c.html(callbackPage(body), status) : c.json(body, status);
  const workspaceId = WORKSPACE_IN_STATE.exec(state)?.[1];
  if (!workspaceId) return answer(400, errorBody("invalid_state", "The callback has no valid `state`."));
  const denied = c.req.query("error");
  if (denied || !code) {
    const why = c.req.query("error_description") ?? denied ?? "no authorization code";
    return answer(400, errorBody("oauth_denied", `The sign-in did not complete: ${why.slice(0, 300)}`));
  }
  const result = await mcpRegistryStub(c.env, workspaceId).completeAuthorization(state, code);
  return result.ok
    ? answer(200, result.value as McpServerView)
    : answer(400, errorBody(result.code, result.message));
});

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** The page the browser lands on after signing in. */
function callbackPage(body: McpServerView | ReturnType<typeof errorBody>): string {
  const text = !("object" in body)
    ? `The MCP server could not be connected: ${body.error.message}`
    : `${body.name} is ${body.status === "connected" ? `connected (${body.tools.length} tools)` : body.status}. You can close this tab.`;
  return `<!doctype html><meta charset="utf-8"><title>Cirrus · MCP</title><p>${escapeHtml(text)}</p><p><a href="/dashboard/#/mcp">Back to the dashboard</a></p>`;
}

export default app;
