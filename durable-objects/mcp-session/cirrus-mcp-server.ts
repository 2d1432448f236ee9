/**
 * The tools Cirrus offers over MCP: `run_agent` (see run-agent.ts), `web_fetch` and `web_search`
 * as stateless tools with the workspace's search settings and allowed_domains, and
 * `get_conversation`. Results go through the same result budget as the agent's own tools.
 */
import { CONVERSATION_ID } from "../addresses/ids";
import { conversationStub } from "../addresses/conversation";
import { workspaceStub } from "../addresses/workspace";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { z } from "zod";
import { runtimeConfig } from "../engine/config/runtime-config";
import { webConfig } from "../engine/config/web-config";
import { createSummarizer } from "../engine/model/summarize";
import { createModelClient } from "../engine/model/model-factory";
import { ToolRegistry } from "../engine/tools/tool";
import { applyResultBudget, type RunnerLimits, runTool } from "../engine/tools/tool-runner";
import { createWebTools, WebFetchArgs, WebSearchArgs } from "../engine/tools/web";
import { runAgent, toolError } from "./run-agent";

/** Who the server acts for. */
export interface ServerScope {
  env: Env;
  workspaceId: string;
}

const RunAgentArgs = {
  prompt: z.string().min(1).max(500_000).describe("What to ask the agent."),
  conversation_id: z
    .string()
    .max(100)
    .optional()
    .describe("Continue this conversation (default: a new one)."),
  instructions: z.string().max(100_000).optional().describe("System instructions for a new conversation."),
};

/** Builds the MCP server of one session. */
export function createCirrusMcpServer(scope: ServerScope): McpServer {
  const server = new McpServer(
    { name: "cirrus", version: "0.1.0" },
    {
      capabilities: { tools: {} },
      instructions: "Cirrus runs a tool-using AI agent (web, browser, files) for you.",
      // Ajv (the default) compiles code from strings, which deployed Workers refuse.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  registerRunAgent(server, scope);
  registerWebTools(server, scope);
  registerGetConversation(server, scope);
  return server;
}

/** run_agent: the Cirrus agent on a prompt, to the end (see run-agent.ts). */
function registerRunAgent(server: McpServer, scope: ServerScope): void {
  server.registerTool(
    "run_agent",
    {
      description:
        "Run the Cirrus agent on a prompt, in a new conversation or an existing one, to the end; returns its answer. Sends progress notifications when asked for them; questions the agent asks are put to you through elicitation when your client supports it.",
      inputSchema: RunAgentArgs,
      outputSchema: {
        conversation_id: z.string(),
        run_id: z.string(),
        status: z.string(),
        usage: z.looseObject({
          input_tokens: z.number(),
          output_tokens: z.number(),
          total_tokens: z.number(),
        }),
      },
    },
    (args, extra) =>
      runAgent(
        {
          env: scope.env,
          workspaceId: scope.workspaceId,
          canElicit: () => Boolean(server.server.getClientCapabilities()?.elicitation),
        },
        args,
        extra,
      ),
  );
}

/** web_fetch and web_search, run through the agent's tool runner and result budget. */
function registerWebTools(server: McpServer, scope: ServerScope): void {
  const web = webTools(scope);
  const limits = runtimeConfig(scope.env).limits;
  server.registerTool(
    "web_fetch",
    { description: web.get("web_fetch")!.description, inputSchema: WebFetchArgs.shape },
    webToolHandler(scope, web, limits, "web_fetch"),
  );
  server.registerTool(
    "web_search",
    { description: web.get("web_search")!.description, inputSchema: WebSearchArgs.shape },
    webToolHandler(scope, web, limits, "web_search"),
  );
}

/** Answers an MCP call of one web tool with the tool's result. */
function webToolHandler(scope: ServerScope, web: ToolRegistry, limits: RunnerLimits, name: string) {
  return async (
    args: Record<string, unknown>,
    extra: { requestId: string | number; signal: AbortSignal },
  ): Promise<CallToolResult> => {
    const ctx = {
      conversationId: "",
      workspaceId: scope.workspaceId,
      runId: null,
      toolCallId: `mcp_${extra.requestId}`,
      signal: extra.signal,
    };
    const outcome = await runTool(web, name, args, ctx, limits);
    if (outcome.kind !== "result") return toolError(`${name} cannot run here.`);
    return { isError: outcome.isError, content: [{ type: "text", text: outcome.content }] };
  };
}

/** get_conversation: a conversation's status, usage and messages. */
function registerGetConversation(server: McpServer, scope: ServerScope): void {
  server.registerTool(
    "get_conversation",
    {
      description: "A conversation of this workspace: its status, usage and messages.",
      inputSchema: { conversation_id: z.string().max(100).describe("The conversation's id (conv_…).") },
    },
    async ({ conversation_id }) => getConversation(scope, conversation_id),
  );
}

/** web_fetch and web_search with the workspace's settings, outside any conversation. */
function webTools(scope: ServerScope): ToolRegistry {
  const config = runtimeConfig(scope.env);
  const workspace = workspaceStub(scope.env, scope.workspaceId);
  let domains: string[] | null | undefined;
  const summarize = createSummarizer(createModelClient(scope.env, config), config.defaultModel);
  const tools = createWebTools({
    config: webConfig(scope.env),
    summarize,
    searchSettings: () => workspace.getSearchSettings(),
    get domains() {
      return { workspaceDomains: domains ?? null, allowedDomains: null };
    },
  });
  const registry = new ToolRegistry(tools);
  // The workspace's allowed_domains are read before each call.
  const fetchTool = registry.get("web_fetch")!;
  const original = fetchTool.execute.bind(fetchTool);
  fetchTool.execute = async (args, ctx) => {
    domains = (await workspace.getAgentPolicy()).allowed_domains;
    return original(args, ctx);
  };
  return registry;
}

async function getConversation(scope: ServerScope, id: string): Promise<CallToolResult> {
  if (!CONVERSATION_ID.test(id)) return toolError(`No conversation ${id} in this workspace.`);
  const details = (await conversationStub(scope.env, scope.workspaceId, id).details()) as unknown as {
    id: string;
    status: string;
    usage: unknown;
    messages: { role: string; content: string | null }[];
  } | null;
  if (!details) return toolError(`No conversation ${id} in this workspace.`);
  const limits = runtimeConfig(scope.env).limits;
  return {
    content: [{ type: "text", text: applyResultBudget(JSON.stringify(details), limits.maxResultChars) }],
    structuredContent: {
      id: details.id,
      status: details.status,
      usage: details.usage,
      message_count: details.messages.length,
    },
  };
}
