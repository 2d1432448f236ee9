/** Helpers for the MCP tests: the servers' URLs and controls, registering a server, tool results. */
import { inject } from "vitest";
import type { McpServerView } from "../../../schemas/mcp";
import { api, modelRequests } from "../helpers";

/** The URLs of the MCP servers globalSetup started. */
export const mcpUrls = () => inject("mcpUrls");

/** The bearer token of the test server (mirrors test/support/mcp-servers.ts). */
export const MCP_TEST_TOKEN = "mcp-test-token-7f3a9c";

/** The MCP URL of a tenant of one of our test servers (each tenant has its own sessions and controls). */
export const tenantUrl = (server: "bearer" | "oauth", tenant: string) =>
  `${new URL(mcpUrls()[server]).origin}/t/${tenant}/mcp`;

/** Calls a control route of a tenant of one of our test servers (`down`, `up`, `forget-sessions`, `log`). */
export async function control(
  server: "bearer" | "oauth",
  action: string,
  tenant = "default",
  method = "POST",
): Promise<unknown> {
  const origin = new URL(mcpUrls()[server]).origin;
  const res = await fetch(`${origin}/t/${tenant}/control/${action}`, { method });
  return res.json();
}

/** What a tenant of a test server saw. */
export async function serverLog(server: "bearer" | "oauth", tenant = "default") {
  return (await control(server, "log", tenant, "GET")) as {
    initializes: number;
    calls: { tool: string; session: string | null; args: unknown }[];
    headers: Record<string, string>[];
  };
}

/** Registers an MCP server (201 expected) with a key (default: admin). */
export async function addServer(body: Record<string, unknown>, token?: string): Promise<McpServerView> {
  const res = await api("/v1/mcp/servers", { method: "POST", json: body, token });
  if (res.status !== 201) throw new Error(`add server: ${res.status} ${await res.text()}`);
  return (await res.json()) as McpServerView;
}

/** The tool names offered in the model's first request of a script key. */
export async function offeredTools(key: string, request = 0): Promise<string[]> {
  const req = (await modelRequests(key))[request];
  return ((req.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

/** The offered spec of one tool. */
export async function offeredSpec(
  key: string,
  name: string,
): Promise<{ name: string; description: string; parameters: Record<string, unknown> }> {
  const req = (await modelRequests(key))[0];
  const tool = (
    (req.tools ?? []) as {
      function: { name: string; description: string; parameters: Record<string, unknown> };
    }[]
  ).find((t) => t.function.name === name);
  if (!tool) throw new Error(`${name} not offered`);
  return tool.function;
}

/** The content of the tool results the model saw in its last request, by tool call id. */
export async function toolResultsById(key: string): Promise<Map<string, string>> {
  const last = (await modelRequests(key)).at(-1)!.messages as {
    role: string;
    content: unknown;
    tool_call_id?: string;
  }[];
  return new Map(last.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]));
}
