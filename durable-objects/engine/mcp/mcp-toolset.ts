/**
 * A conversation's MCP tools: connections to its workspace's servers (one per server, reused
 * across runs while the object lives, sessions kept in storage across restarts), the tools they
 * offer under `<server>__<tool>` names, and the servers that are unavailable right now (left out,
 * reported). A `tools/list_changed` notification takes effect at the next run: a run's tool list
 * stays the same from its first request to its last.
 */

import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ApprovalRule } from "../../../schemas/approvals";
import { headerRedactor } from "../secrets/header-redaction";
import { defineTool, type Tool, ToolError, type ToolRegistry } from "../tools/tool";
import { describeError, McpConnection, type ServerEndpoint } from "./connection";
import { adaptInputSchema, jsonSchemaValidator } from "./json-schema";
import { type McpToolInfo, McpUnavailable, type SessionStore } from "./mcp-types";
import { mapCallResult, type SaveBytes } from "./results";
import { assignToolNames } from "./tool-names";

/** A server as the conversation gets it from the workspace's registry (headers decrypted). */
export interface McpServerConfig extends ServerEndpoint {
  allowed_tools: string[] | null;
  /** The approval default of the server's tools, set when it was registered; absent = allow. */
  approval?: ApprovalRule;
  /** `needs_auth` servers are left out without trying. */
  status: "connected" | "needs_auth" | "error";
  /** The cached tool list, or null when it must be read. */
  tools: McpToolInfo[] | null;
}

/** A server left out of a run, and why. */
export interface UnavailableServer {
  server: string;
  code: string;
  message: string;
}

/** What the toolset needs from its host. */
export interface McpToolsetDeps {
  allowPrivateNetwork: boolean;
  sessions: SessionStore;
  /** New headers for a server after a 401 (OAuth refresh), or null. */
  reauthorize(serverId: string): Promise<Record<string, string> | null>;
  /** A server's tool list changed (or was read for the first time): cache it. */
  saveTools(serverId: string, tools: McpToolInfo[]): void;
  save?: SaveBytes;
  vision(): boolean;
  timeoutMs: number;
}

/** The MCP side of one conversation's tool set. */
export class McpToolset {
  private readonly connections = new Map<string, McpConnection>();
  private readonly opening = new Map<string, Promise<McpConnection>>();
  /** Lists a server changed (list_changed) since the last run began: the next run uses them. */
  private readonly changed = new Map<string, McpToolInfo[]>();

  constructor(private readonly deps: McpToolsetDeps) {}

  /** Adds the servers' tools to the registry; returns the servers left out. */
  async attach(
    registry: ToolRegistry,
    servers: McpServerConfig[],
    allowed: string[] | null,
  ): Promise<UnavailableServer[]> {
    const unavailable: UnavailableServer[] = [];
    const listed = await Promise.all(
      servers.map(async (s) => {
        try {
          return { server: s, tools: await this.toolsOf(s) };
        } catch (err) {
          unavailable.push(unavailableOf(s, err));
          return { server: s, tools: [] as McpToolInfo[] };
        }
      }),
    );
    this.register(registry, listed, allowed ? new Set(allowed) : null);
    return unavailable.sort((a, b) => (a.server < b.server ? -1 : 1));
  }

  /** Closes every connection's HTTP streams (sessions stay stored for the next run). */
  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  private async toolsOf(server: McpServerConfig): Promise<McpToolInfo[]> {
    if (server.status === "needs_auth" && !server.headers.Authorization && !server.headers.authorization) {
      throw new McpUnavailable("needs_auth", `${server.name} needs to be connected first (OAuth).`);
    }
    const conn = await this.connection(server);
    const changed = this.changed.get(server.id);
    this.changed.delete(server.id);
    if (changed) return changed;
    if (server.tools) return server.tools;
    const tools = await conn.listTools();
    this.deps.saveTools(server.id, tools);
    return tools;
  }

  /** The live connection to a server, opened (or resumed) once even when asked concurrently. */
  private connection(server: ServerEndpoint): Promise<McpConnection> {
    const open = this.connections.get(server.id);
    if (open) {
      open.setHeaders(server.headers);
      return Promise.resolve(open);
    }
    let pending = this.opening.get(server.id);
    if (!pending) {
      pending = McpConnection.open(server, {
        allowPrivateNetwork: this.deps.allowPrivateNetwork,
        sessions: this.deps.sessions,
        reauthorize: async () => {
          const fresh = await this.deps.reauthorize(server.id);
          if (fresh) server.headers = fresh; // later calls send the refreshed token too
          return fresh;
        },
        onToolsChanged: (tools) => this.toolsChanged(server.id, tools),
      })
        .then((conn) => {
          this.connections.set(server.id, conn);
          return conn;
        })
        .finally(() => this.opening.delete(server.id));
      this.opening.set(server.id, pending);
    }
    return pending;
  }

  /**
   * list_changed: the server's new list is saved (the workspace's registry caches it) and takes
   * effect at the next run. The run going on keeps the tools it started with, in the same order,
   * so its requests stay byte-stable for the provider's prompt cache; a call of a tool the server
   * withdrew gets the server's error.
   */
  private toolsChanged(serverId: string, tools: McpToolInfo[]): void {
    this.deps.saveTools(serverId, tools);
    this.changed.set(serverId, tools);
  }

  /** Names every tool (deterministically) and adds the allowed ones to the run's registry. */
  private register(
    registry: ToolRegistry,
    listed: { server: McpServerConfig; tools: McpToolInfo[] }[],
    allowed: Set<string> | null,
  ): void {
    const offered = listed.flatMap(({ server, tools }) =>
      tools
        .filter((t) => !server.allowed_tools || server.allowed_tools.includes(t.name))
        .map((t) => ({ server, tool: t })),
    );
    const naming = assignToolNames(
      offered.map((o) => ({ server: o.server.name, tool: o.tool.name })),
      registry.names(),
    );
    for (const { server, tool } of offered) {
      const name = naming.get(`${server.name}/${tool.name}`)!;
      if (!allowed || allowed.has(name)) registry.add(this.createTool(server, tool, name));
    }
  }

  private createTool(server: McpServerConfig, info: McpToolInfo, name: string): Tool {
    const description = `${info.description || info.name} (MCP tool "${info.name}" of server ${server.name})`;
    return defineTool({
      name,
      description: description.slice(0, 4000),
      parameters: jsonSchemaValidator(info.input_schema),
      jsonSchema: adaptInputSchema(info.input_schema),
      searchable: true,
      ...(server.approval ? { approval: server.approval } : {}),
      execute: async (args, ctx) => {
        let result: Awaited<ReturnType<McpConnection["callTool"]>>;
        // A server that echoes its request must not show the model the headers it was sent
        // (read after the call: an OAuth refresh during it replaces them).
        const redacted = <T>(v: T) => headerRedactor(server.headers).value(v);
        try {
          const conn = await this.connection(server);
          result = await conn.callTool(info.name, args as Record<string, unknown>, {
            signal: ctx.signal,
            timeoutMs: this.deps.timeoutMs,
          });
        } catch (err) {
          if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
          throw redacted(callError(server, info.name, err));
        }
        return mapCallResult(redacted(result), {
          conversationId: ctx.conversationId,
          toolCallId: ctx.toolCallId,
          toolName: name,
          save: this.deps.save,
          vision: this.deps.vision(),
        });
      },
    });
  }
}

/** A failed call as the error the model reads. */
function callError(server: McpServerConfig, tool: string, err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof McpUnavailable) return new ToolError("mcp_server_unavailable", err.message);
  if (err instanceof McpError) {
    return new ToolError("mcp_error", `${server.name} answered ${tool} with an error: ${err.message}`);
  }
  return new ToolError(
    "mcp_server_unavailable",
    `The MCP server ${server.name} could not be reached for ${tool} (${describeError(err)}).`,
  );
}

function unavailableOf(server: McpServerConfig, err: unknown): UnavailableServer {
  if (err instanceof McpUnavailable) return { server: server.name, code: err.code, message: err.message };
  return {
    server: server.name,
    code: "unreachable",
    message: `${server.name} could not be reached (${describeError(err)})`,
  };
}

/** The note the model gets about servers left out of this run. */
export function unavailableNote(list: UnavailableServer[]): string | null {
  if (list.length === 0) return null;
  const lines = list.map((u) => `- ${u.server}: ${u.message}`);
  return `These MCP servers are unavailable right now, so their tools are not offered in this run:\n${lines.join("\n")}`;
}
