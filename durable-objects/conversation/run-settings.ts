/**
 * What a conversation's runs are set up with: the workspace's settings read when a run's tools are
 * built (agent policy, HTTP tools, costs, the MCP servers the conversation may use) and the
 * settings the agent loop obeys.
 */
import { DEFAULT_COST_SETTINGS } from "../../schemas/cost";
import type { StoredHttpTool } from "../../schemas/http-tools";
import type { LoopSettings } from "../engine/loop/loop-deps";
import type { McpServerConfig } from "../engine/mcp/mcp-toolset";
import { mayMatchPrefix, visitorToolGate } from "../engine/tools/visitor-tools";
import type { WorkspaceObject } from "../workspace/workspace-object";
import type { ConversationMcp } from "./conversation-mcp";
import { type ConversationInfo, visitorOf } from "./conversation-meta";
import { fallbackModelsOf } from "./run-models";
import type { WiringParts } from "./wiring-parts";

/**
 * The workspace's settings for a conversation's tools (none without a workspace): its agent
 * policy, HTTP tools and cost settings, and the MCP servers the conversation may use — a widget
 * visitor's only those its widget policy's tools reach, with that `gate`.
 */
export async function readToolSettings(
  workspace: DurableObjectStub<WorkspaceObject> | null,
  info: ConversationInfo | null,
  mcp: ConversationMcp,
) {
  const visitor = info ? visitorOf(info) : null;
  // One round trip's worth of waiting: the workspace answers both calls concurrently.
  const [agentPolicy, workspaceTools, cost, servers, widget] = workspace
    ? await Promise.all([
        workspace.getAgentPolicy(),
        workspace.httpTools(),
        workspace.getCostSettings(),
        mcp.registry(info!.workspace_id).forConversation(info!.mcp_servers ?? null),
        visitor ? workspace.getWidgetSettings() : null,
      ])
    : [null, [], DEFAULT_COST_SETTINGS, [], null];
  // A widget visitor's conversation gets only the widget policy's tools (the server enforces it).
  const gate = visitor ? visitorToolGate(widget?.tools ?? null) : null;
  const mcpServers = (servers as McpServerConfig[]).filter(
    (s) => !gate || mayMatchPrefix(gate.patterns, `${s.name}__`),
  );
  return { agentPolicy, workspaceTools: workspaceTools as StoredHttpTool[], cost, gate, mcpServers };
}

/** The settings the agent loop obeys in a run of this conversation. */
export function loopSettings(
  p: Pick<WiringParts, "config" | "meta">,
  info: ConversationInfo,
  instructions: string | null,
  timeZone: string | null,
): LoopSettings {
  return {
    model: info.model,
    fallbackModels: fallbackModelsOf(info, p.config),
    instructions,
    maxSteps: info.max_steps,
    maxConsecutiveFailures: info.max_consecutive_failures ?? p.config.maxConsecutiveFailures,
    limits: p.config.limits,
    contextTokens: info.context_window,
    clearAtTokens: info.context_clear_at_tokens ?? p.config.clearAtTokens,
    keepResults: info.context_keep_results ?? p.config.keepResults,
    maxTokens: p.meta.job()?.max_tokens ?? null,
    prompt: {
      role: "agent",
      timeZone,
      unattended: p.meta.job() !== null,
    },
  };
}
