/**
 * MCP servers a workspace registers (their tools become the agent's) and the answers of the
 * `/v1/mcp/servers` routes: one zod schema per concept, shared by validation, the registry
 * object, the dashboard and the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { ApprovalRule } from "./approvals";

/** A server's name: the prefix of its tools' names (`<name>__<tool>`). */
export const MCP_SERVER_NAME = /^[a-z0-9_-]{1,32}$/;

export const McpServerName = z
  .string()
  .regex(MCP_SERVER_NAME, "1–32 characters of a-z, 0-9, _ and -")
  .describe("Unique in the workspace; the model sees the server's tools as `<name>__<tool>`.");

const McpHeaders = z
  .record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "a header name"), z.string().max(8000))
  .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
  .describe("Request headers such as `Authorization` (write-only: encrypted at rest, never returned).");

const McpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .describe("The server's MCP endpoint (Streamable HTTP; an older HTTP+SSE endpoint works too).");

const AllowedMcpTools = z
  .array(z.string().min(1).max(200))
  .max(500)
  .describe("Only these of the server's tools (their MCP names) are offered; absent = all.");

export const McpOAuthConfig = z
  .object({
    client_id: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe("A pre-registered OAuth client id (else dynamic registration)."),
    client_secret: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe("Its secret, for confidential clients (write-only)."),
    scope: z
      .string()
      .max(1000)
      .optional()
      .describe("Scopes to ask for (default: what the server advertises)."),
  })
  .describe("OAuth settings for servers that need authorisation; optional even then.");

export const CreateMcpServer = z
  .strictObject({
    name: McpServerName,
    url: McpUrl,
    headers: McpHeaders.optional(),
    allowed_tools: AllowedMcpTools.optional(),
    oauth: McpOAuthConfig.optional(),
    approval: ApprovalRule.optional().describe(
      "The approval default of every tool of this server (absent = allow); combined with the workspace's and the conversation's rules, the stricter wins.",
    ),
  })
  .openapi("CreateMcpServer");
export type CreateMcpServer = z.infer<typeof CreateMcpServer>;

export const UpdateMcpServer = z
  .strictObject({
    name: McpServerName.optional(),
    url: McpUrl.optional(),
    headers: McpHeaders.nullable().optional().describe("Replaces every header; null removes them."),
    allowed_tools: AllowedMcpTools.nullable().optional(),
    oauth: McpOAuthConfig.nullable().optional(),
    approval: ApprovalRule.nullable().optional().describe("null restores allow."),
  })
  .openapi("UpdateMcpServer");
export type UpdateMcpServer = z.infer<typeof UpdateMcpServer>;

export const McpServerStatus = z
  .enum(["connected", "needs_auth", "error"])
  .describe("`needs_auth`: connect it with OAuth (`GET /v1/mcp/servers/{id}/authorize`).");
export type McpServerStatus = z.infer<typeof McpServerStatus>;

export const McpToolView = z.object({ name: z.string(), description: z.string() }).openapi("McpTool");
export type McpToolView = z.infer<typeof McpToolView>;

export const McpServerView = z
  .object({
    id: z.string(),
    object: z.literal("mcp_server"),
    name: z.string(),
    url: z.string(),
    status: McpServerStatus,
    tools: z.array(McpToolView),
    error: z.string().optional(),
    header_names: z.array(z.string()).describe("Names of the configured headers (values are never shown)."),
    allowed_tools: z.array(z.string()).nullable(),
    approval: ApprovalRule.describe("The approval default of the server's tools."),
    oauth: z
      .object({
        client_id: z.string().nullable(),
        connected: z.boolean().describe("Whether OAuth tokens are stored."),
        expires_at: z
          .number()
          .nullable()
          .describe("When the access token expires (epoch ms); it is refreshed before."),
      })
      .nullable(),
    created_at: z.number(),
    updated_at: z.number(),
  })
  .openapi("McpServer");
export type McpServerView = z.infer<typeof McpServerView>;

export const McpServerList = z.object({ data: z.array(McpServerView) }).openapi("McpServerList");

export const McpAuthorization = z
  .object({
    authorization_url: z
      .string()
      .describe("Open it in a browser to sign in; it returns to /v1/mcp/oauth/callback."),
    status: McpServerStatus,
  })
  .openapi("McpAuthorization");

/** `mcp_servers` of conversations and jobs: names of the workspace's servers whose tools they get. */
export const McpServerNames = z
  .array(McpServerName)
  .max(50)
  .describe("Only these of the workspace's MCP servers give this conversation tools (default: all).");
