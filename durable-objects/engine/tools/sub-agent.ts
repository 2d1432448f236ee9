/** The agent tool: spawns an independent sub-agent for a sub-task and returns its answer. */
import { z } from "zod";
import { CirrusError } from "../errors";
import type { SubAgentSpec } from "../loop/sub-agent";
import { defineTool, type Tool, type ToolContext, ToolError } from "./tool";

export const AgentArgs = z.object({
  prompt: z.string().min(1).max(100_000).describe("The sub-task description."),
  description: z.string().max(80).optional().describe("A short label (3-5 words, used in the UI)."),
  type: z
    .enum(["researcher", "page_operator", "general"])
    .default("general")
    .describe(
      '"researcher" (read-only web research), "page_operator" (browser automation) or "general" (all tools).',
    ),
  tab_id: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("A tab ID passed to the sub-agent, which will operate on that tab."),
});

/** What the agent tool needs: a way to run a sub-agent inside the current run. */
export interface SubAgentOps {
  run(spec: SubAgentSpec, ctx: ToolContext): Promise<string>;
  maxSteps: number;
}

/** Creates the `agent` tool. */
export function createAgentTool(ops: SubAgentOps): Tool {
  return defineTool({
    name: "agent",
    description: `Spawn an independent sub-agent with its own context for a complex sub-task; several can run at once. It cannot ask the user or spawn agents, and takes at most ${ops.maxSteps} model turns. Returns its final answer.`,
    parameters: AgentArgs,
    timeoutMs: 30 * 60_000,
    runOnly: true,
    execute: async (args, ctx) => {
      if (!ctx.runId) throw new ToolError("run_only_tool", "agent runs inside a conversation turn.");
      try {
        return await ops.run(
          {
            id: ctx.toolCallId,
            prompt: args.prompt,
            description: args.description,
            type: args.type,
            tabId: args.tab_id,
            maxSteps: ops.maxSteps,
          },
          ctx,
        );
      } catch (err) {
        if (err instanceof CirrusError) throw err;
        throw new ToolError(
          "sub_agent_failed",
          `The sub-agent failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    },
  });
}
