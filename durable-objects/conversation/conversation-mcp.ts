/**
 * A conversation's MCP tools: the workspace's servers attached to a run's tool set (one toolset
 * per conversation, its sessions kept in SQLite), what the model is told about servers left out,
 * and the notices announcing them with the run's first event.
 */
import { mcpRegistryStub } from "../addresses/mcp-registry";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { conversationFiles } from "../engine/files/files-factory";
import { ev } from "../engine/loop/event-builders";
import type { LoopDeps } from "../engine/loop/loop-deps";
import {
  type McpServerConfig,
  McpToolset,
  type UnavailableServer,
  unavailableNote,
} from "../engine/mcp/mcp-toolset";
import type { ToolRegistry } from "../engine/tools/tool";
import type { McpRegistry } from "../mcp-registry/mcp-registry-object";
import type { ConversationInfo } from "./conversation-meta";
import { imageFiles } from "./conversation-policy";
import { McpSessions } from "./mcp-sessions";

/** What the conversation's MCP part needs. */
export interface McpParts {
  env: Env;
  sql: SqlStorage;
  config: RuntimeConfig;
  /** Whether the model is shown images (results' screenshots and pictures). */
  vision(): boolean;
}

/** The MCP servers of one conversation's runs. */
export class ConversationMcp {
  private toolset: McpToolset | null = null;
  /** What the model is told about MCP servers left out of the run being built. */
  private unavailable: string | null = null;
  /** Notices about left-out MCP servers, emitted with the run's first event. */
  private notices: UnavailableServer[] = [];

  constructor(private readonly p: McpParts) {}

  /** The workspace's MCP server registry. */
  registry(workspaceId: string): DurableObjectStub<McpRegistry> {
    return mcpRegistryStub(this.p.env, workspaceId) as DurableObjectStub<McpRegistry>;
  }

  /** Adds the workspace's MCP tools; servers that are down are left out, with a notice. */
  async attach(registry: ToolRegistry, info: ConversationInfo, servers: McpServerConfig[]): Promise<void> {
    this.unavailable = null;
    this.notices = [];
    if (servers.length === 0) return;
    const left = await this.toolsetFor(info).attach(registry, servers, info.allowed_tools ?? null);
    this.unavailable = unavailableNote(left);
    this.notices = left;
  }

  /** The run's instructions with the note about left-out servers, if any. */
  instructions(base: string | null): string | null {
    return this.unavailable ? [base, this.unavailable].filter(Boolean).join("\n\n") : base;
  }

  /** Emits the pending notices about left-out servers into the run (once). */
  flushNotices(runId: string, emit: LoopDeps["emit"]): void {
    const list = this.notices;
    this.notices = [];
    for (const { server, code, message } of list)
      emit(runId, ev.custom("notice", { kind: "mcp_server_unavailable", server, code, message }));
  }

  /** Closes the MCP connections' streams at the end of a run (their sessions stay stored). */
  async close(): Promise<void> {
    await this.toolset?.close();
  }

  private toolsetFor(info: ConversationInfo): McpToolset {
    const registry = () => this.registry(info.workspace_id);
    this.toolset ??= new McpToolset({
      allowPrivateNetwork: this.p.env.ALLOW_PRIVATE_NETWORK === "true",
      sessions: new McpSessions(this.p.sql),
      reauthorize: (id) => registry().reauthorize(id),
      saveTools: (id, tools) => {
        registry()
          .saveTools(id, tools)
          .catch(() => {});
      },
      save: imageFiles(conversationFiles(this.p.env, info.workspace_id).files).save,
      vision: () => this.p.vision(),
      timeoutMs: this.p.config.limits.timeoutMs,
    });
    return this.toolset;
  }
}
