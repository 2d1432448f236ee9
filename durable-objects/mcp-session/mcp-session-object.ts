/**
 * One Durable Object per session of Cirrus's MCP server (named `<workspace>/<session id>`), so
 * every request of a session reaches the same SDK transport whichever isolate the Worker runs
 * in. The client's `initialize` parameters are stored: after the object was evicted it replays
 * them into a fresh transport, and the session goes on instead of answering "not initialized".
 */
import { DurableObject } from "cloudflare:workers";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createCirrusMcpServer } from "./cirrus-mcp-server";

/** Headers the Worker sets after authenticating the request (never taken from the client). */
export const WORKSPACE_HEADER = "x-cirrus-workspace";
export const SESSION_HEADER = "x-cirrus-mcp-session";

const ACCEPT = "application/json, text/event-stream";

/** The Durable Object of one MCP session. */
export class McpSessionObject extends DurableObject<Env> {
  private transport: WebStandardStreamableHTTPServerTransport | null = null;
  private server: McpServer | null = null;

  async fetch(request: Request): Promise<Response> {
    const workspaceId = request.headers.get(WORKSPACE_HEADER)!;
    const sessionId = request.headers.get(SESSION_HEADER)!;
    const stored = await this.ctx.storage.get<{ workspace: string; params: unknown }>("initialize");
    if (stored && stored.workspace !== workspaceId) return new Response("not found", { status: 404 });
    const body = request.method === "POST" ? await request.text() : null;
    if (!this.transport) {
      await this.open(workspaceId, sessionId);
      if (stored) await this.replay(stored.params);
    }
    if (body !== null && !stored) {
      const init = initializeParams(body);
      if (init) await this.ctx.storage.put("initialize", { workspace: workspaceId, params: init });
    }
    const forwarded = new Request(request.url, { method: request.method, headers: request.headers, body });
    const response = await this.transport!.handleRequest(forwarded);
    if (request.method === "DELETE" && response.ok) await this.end();
    return response;
  }

  private async open(workspaceId: string, sessionId: string): Promise<void> {
    this.transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
    this.server = createCirrusMcpServer({ env: this.env, workspaceId });
    await this.server.connect(this.transport);
  }

  /** Re-initialises a revived session with the client's original `initialize`. */
  private async replay(params: unknown): Promise<void> {
    const post = (message: unknown, sessionId?: string) =>
      this.transport!.handleRequest(
        new Request("https://cirrus.internal/mcp", {
          method: "POST",
          headers: {
            accept: ACCEPT,
            "content-type": "application/json",
            ...(sessionId ? { "mcp-session-id": sessionId } : {}),
          },
          body: JSON.stringify(message),
        }),
      );
    const init = await post({ jsonrpc: "2.0", id: "cirrus-replay", method: "initialize", params });
    await init.body?.cancel();
    const ack = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      this.transport!.sessionId,
    );
    await ack.body?.cancel();
  }

  private async end(): Promise<void> {
    await this.server?.close().catch(() => {});
    this.server = null;
    this.transport = null;
    await this.ctx.storage.deleteAll();
  }
}

/** The params of an `initialize` request in a POST body, if it is one. */
function initializeParams(body: string): unknown {
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const init = messages.find((m) => (m as { method?: string })?.method === "initialize") as
      | { params?: unknown }
      | undefined;
    return init?.params ?? null;
  } catch {
    return null;
  }
}
