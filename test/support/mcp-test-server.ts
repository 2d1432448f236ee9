/**
 * A small MCP server of our own for the tests (Node, the SDK's McpServer over Streamable HTTP):
 * tools with awkward names and schemas, an image, an error result, a tool that adds a tool
 * (tools/list_changed), and controls to take it down, make it forget its sessions and read what
 * it saw (session ids per call, initialize count, headers). Optionally behind a bearer token or
 * behind OAuth (see mcp-oauth-server.ts).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** A 1x1 PNG. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** What the server saw, for assertions. */
export interface ServerLog {
  initializes: number;
  calls: { tool: string; session: string | null; args: unknown }[];
  headers: Record<string, string>[];
}

/** `lookup` (structured result), `fail` (an error result) and `picture` (text and an image); calls are logged. */
function registerLoggedTools(server: McpServer, log: ServerLog, sessionOf: () => string | null): void {
  server.registerTool(
    "lookup",
    {
      description: "Looks up an order by id.",
      inputSchema: { id: z.string().describe("Order id") },
      outputSchema: { id: z.string(), status: z.string() },
    },
    async ({ id }) => {
      log.calls.push({ tool: "lookup", session: sessionOf(), args: { id } });
      return {
        content: [{ type: "text", text: `order ${id} is shipped` }],
        structuredContent: { id, status: "shipped" },
      };
    },
  );
  server.registerTool("fail", { description: "Always fails.", inputSchema: {} }, async () => {
    log.calls.push({ tool: "fail", session: sessionOf(), args: {} });
    return { isError: true, content: [{ type: "text", text: "the warehouse is closed" }] };
  });
  server.registerTool("picture", { description: "Returns a picture.", inputSchema: {} }, async () => {
    log.calls.push({ tool: "picture", session: sessionOf(), args: {} });
    return {
      content: [
        { type: "text", text: "a red dot" },
        { type: "image", data: TINY_PNG, mimeType: "image/png" },
      ],
    };
  });
}

/** Tools with awkward names: dotted, its underscored twin, and one past 64 characters. */
function registerAwkwardNames(server: McpServer): void {
  server.registerTool(
    "get.item",
    { description: "Dotted name.", inputSchema: { tags: z.array(z.string()).optional() } },
    async () => ({ content: [{ type: "text", text: "dotted" }] }),
  );
  server.registerTool("get_item", { description: "Underscored name.", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "underscored" }],
  }));
  server.registerTool(
    "a_tool_with_a_really_long_name_that_goes_past_the_limit_of_sixty_four",
    { description: "Long name.", inputSchema: {} },
    async () => ({ content: [{ type: "text", text: "long" }] }),
  );
}

/** `slow` (waits), `big` (many lines) and `add_tool` (registers `extra`: tools/list_changed). */
function registerBehaviourTools(server: McpServer): void {
  server.registerTool(
    "slow",
    { description: "Waits.", inputSchema: { ms: z.number().int().min(0).max(60_000) } },
    async ({ ms }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { content: [{ type: "text", text: `waited ${ms} ms` }] };
    },
  );
  server.registerTool(
    "big",
    {
      description: "Returns many lines of text.",
      inputSchema: { lines: z.number().int().min(1).max(100_000) },
    },
    async ({ lines }) => ({
      content: [
        {
          type: "text",
          text: Array.from({ length: lines }, (_, i) => `line ${i + 1} of the report`).join("\n"),
        },
      ],
    }),
  );
  server.registerTool("add_tool", { description: "Adds the tool `extra`.", inputSchema: {} }, async () => {
    server.registerTool("extra", { description: "Added later.", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "extra!" }],
    }));
    return { content: [{ type: "text", text: "added" }] };
  });
}

/** `whoami`: the headers of the request that called it, as a debugging (or compromised) server would. */
function registerEcho(server: McpServer): void {
  server.registerTool(
    "whoami",
    { description: "Echoes the request headers.", inputSchema: {} },
    async (_a, extra) => ({
      content: [{ type: "text", text: JSON.stringify(extra.requestInfo?.headers ?? {}) }],
    }),
  );
}

/** Registers the test tools on a server, in the order tools/list reports them. */
function registerTools(server: McpServer, log: ServerLog, sessionOf: () => string | null): void {
  registerLoggedTools(server, log, sessionOf);
  registerAwkwardNames(server);
  registerBehaviourTools(server);
  registerEcho(server);
}

/** Options of one test server. */
export interface TestServerOptions {
  /** Requests need `Authorization: Bearer <token>`. */
  bearer?: string;
  /** Requests need a token this function accepts (OAuth); the 401 names the metadata URL. */
  verify?(token: string): boolean;
  resourceMetadataUrl?: () => string;
}

/** Whether `req` carries the bearer token `opts` asks for (any request, when it asks for none). */
function isAuthorized(opts: TestServerOptions, req: IncomingMessage): boolean {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (opts.bearer) return token === opts.bearer;
  if (opts.verify) return token !== undefined && opts.verify(token);
  return true;
}

/** 401 invalid_token, naming the resource metadata URL when there is one (OAuth). */
function refuseToken(opts: TestServerOptions, res: ServerResponse): void {
  const meta = opts.resourceMetadataUrl?.();
  res.writeHead(401, {
    "content-type": "application/json",
    "www-authenticate": `Bearer error="invalid_token"${meta ? `, resource_metadata="${meta}"` : ""}`,
  });
  res.end(JSON.stringify({ error: "invalid_token" }));
}

/** 404 with the JSON-RPC error a server sends for a session id it does not know. */
function sessionNotFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
  );
}

/** A new server and transport for an initialize request; the transport joins `sessions` once it has an id. */
async function openSession(
  log: ServerLog,
  sessions: Map<string, StreamableHTTPServerTransport>,
): Promise<StreamableHTTPServerTransport> {
  log.initializes++;
  const server = new McpServer(
    { name: "cirrus-test", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, t);
    },
  });
  registerTools(server, log, () => t.sessionId ?? null);
  await server.connect(t);
  return t;
}

/** An MCP endpoint handler plus its controls. */
export function createTestMcpHandler(opts: TestServerOptions = {}) {
  const log: ServerLog = { initializes: 0, calls: [], headers: [] };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let down = false;

  async function handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    log.headers.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
    if (down) {
      res.writeHead(503).end("down");
      return;
    }
    if (!isAuthorized(opts, req)) return refuseToken(opts, res);
    const sid = req.headers["mcp-session-id"] as string | undefined;
    const existing = sid ? sessions.get(sid) : undefined;
    if (sid && !existing) return sessionNotFound(res);
    const transport = existing ?? (await openSession(log, sessions));
    await transport.handleRequest(req, res, body);
  }

  return {
    log,
    handle,
    /** Every request answers 503 until `up()`. */
    down: () => {
      down = true;
    },
    up: () => {
      down = false;
    },
    /** Forgets every session, as a restarted server would. */
    forgetSessions: () => {
      for (const t of sessions.values()) void t.close();
      sessions.clear();
    },
  };
}
