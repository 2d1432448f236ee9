/**
 * `POST /v1/conversations/{id}/tools/{name}`: one tool called by a person, with the model's
 * validation. A direct call is the person's own action, so an `ask` rule lets it through; a
 * `deny` rule still refuses it.
 */
import { judge } from "../engine/approvals/policy";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import type { ToolRegistry } from "../engine/tools/tool";
import { runTool } from "../engine/tools/tool-runner";
import type { ConversationInfo } from "./conversation-meta";
import type { ConversationWiring } from "./conversation-wiring";

/** Calls one tool of the conversation directly; its result, or the 4xx that says why not. */
export async function callToolDirectly(
  wiring: ConversationWiring,
  info: ConversationInfo,
  config: RuntimeConfig,
  name: string,
  args: Record<string, unknown>,
): Promise<RpcResult<{ tool: string; result: unknown }>> {
  const tools: ToolRegistry = await wiring.tools();
  const tool = tools.get(name);
  if (!tool)
    return fail(
      404,
      "unknown_tool",
      `There is no tool named "${name}". Available: ${tools.names().join(", ")}.`,
    );
  if (tool.runOnly)
    return fail(
      409,
      "run_only_tool",
      `${name} needs a running conversation turn and cannot be called directly.`,
    );
  const verdict = judge(name, { ...wiring.approvalLevels(), unattended: false, tool: tool.approval });
  if (verdict.rule === "deny") return fail(403, "denied", verdict.reason);
  const outcome = await runTool(
    tools,
    name,
    args,
    {
      conversationId: info.id,
      workspaceId: info.workspace_id,
      runId: null,
      toolCallId: `direct_${crypto.randomUUID()}`,
    },
    config.limits,
  );
  if (outcome.kind !== "result") return fail(409, "run_only_tool", `${name} cannot be called directly.`);
  if (outcome.isError) {
    const status = outcome.code === "invalid_arguments" ? 400 : outcome.code === "not_found" ? 404 : 422;
    return fail(status, outcome.code ?? "tool_error", outcome.message ?? outcome.content);
  }
  return ok({ tool: name, result: outcome.value ?? null });
}
