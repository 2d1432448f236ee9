/** Assembles a conversation's tools: built-ins, the deployment's custom tools, HTTP tools, finish and agent. */
import type { StoredHttpTool } from "../../schemas/http-tools";
import { readEnv } from "../engine/config/env";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { tools as customTools } from "../engine/custom-tools/define";
import { createHttpTool } from "../engine/custom-tools/http-tool";
import type { SubAgentSpec } from "../engine/loop/sub-agent";
import { assertFetchable } from "../engine/net/ssrf";
import { type BuiltinToolDeps, createBuiltinTools } from "../engine/tools";
import { createFinishTool } from "../engine/tools/finish";
import { createAgentTool } from "../engine/tools/sub-agent";
import type { TaskOps } from "../engine/tools/tasks";
import { type ToolContext, type ToolGate, ToolRegistry } from "../engine/tools/tool";

/** What the tool set of one conversation is built from. */
export interface ConversationToolDeps {
  env: Env;
  conversationId: string;
  tasks: TaskOps;
  config: RuntimeConfig;
  outputSchema: Record<string, unknown> | null;
  /** Scheduled job runs: nobody is there to answer ask_user. */
  unattended?: boolean;
  /** Tool names the conversation may use (`finish` always); null = all. */
  allowedTools: string[] | null;
  /** A policy over every tool, added now or later (a widget visitor's); calls outside it are refused. */
  gate?: ToolGate | null;
  /** Workspace tools first, then the conversation's own (which replace same-named ones). */
  httpTools: StoredHttpTool[];
  runSubAgent(spec: SubAgentSpec, ctx: ToolContext): Promise<string>;
  files?: BuiltinToolDeps["files"];
  web?: BuiltinToolDeps["web"];
  browser?: BuiltinToolDeps["browser"];
}

/** Every tool a run of this conversation may call. */
export function buildConversationTools(deps: ConversationToolDeps): ToolRegistry {
  const registry = createBuiltinTools({
    tasks: deps.tasks,
    askUserTimeoutMs: deps.config.askUserTimeoutMs,
    takeoverTimeoutMs: deps.config.takeoverTimeoutMs,
    unattended: deps.unattended,
    files: deps.files,
    web: deps.web,
    browser: deps.browser,
  });
  for (const tool of customTools.list()) registry.add(tool);
  const httpDeps = {
    conversationId: deps.conversationId,
    checkUrl: (url: string) =>
      assertFetchable(new URL(url), { allowPrivateNetwork: readEnv(deps.env).ALLOW_PRIVATE_NETWORK }),
  };
  for (const spec of deps.httpTools) registry.add(createHttpTool(spec, httpDeps));
  registry.add(createFinishTool(deps.outputSchema));
  registry.add(createAgentTool({ maxSteps: deps.config.subAgentMaxSteps, run: deps.runSubAgent }));
  const allowed = deps.allowedTools ? onlyAllowed(registry, deps.allowedTools) : registry;
  return deps.gate ? allowed.restrict(deps.gate) : allowed;
}

/** The registry reduced to the allowed tools; `finish` stays so a run can always end cleanly. */
function onlyAllowed(registry: ToolRegistry, allowed: string[]): ToolRegistry {
  const keep = new Set([...allowed, "finish"]);
  return new ToolRegistry(
    registry
      .names()
      .filter((name) => keep.has(name))
      .map((name) => registry.get(name)!),
  );
}
