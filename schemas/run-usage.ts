/** What a run used: tokens, browser time and cost, in total and per sub-agent. */
import { z } from "@hono/zod-openapi";
import { CostUsd } from "./cost";

export const Usage = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
    cached_input_tokens: z.number().int().optional().describe("Input tokens served from the prompt cache."),
    browser_seconds: z
      .number()
      .optional()
      .describe(
        "Seconds of browser time (this conversation's share of its workspace's browsers), priced into cost_usd at BROWSER_HOUR_PRICE_USD.",
      ),
    cost_usd: CostUsd,
  })
  .openapi("Usage");
export type Usage = z.infer<typeof Usage>;

/** The kinds of sub-agent the `agent` tool starts. */
export const SubAgentType = z.enum(["researcher", "page_operator", "general"]);
export type SubAgentType = z.infer<typeof SubAgentType>;

/** One sub-agent's line in its run's usage: its model turns and tokens (already in the run's totals). */
export const SubAgentUsage = Usage.extend({
  id: z.string().describe("The sub-agent's id: the id of the agent tool call that started it."),
  type: SubAgentType,
  label: z.string().describe("The sub-agent's description, or the start of its prompt."),
  steps: z.number().int().describe("Model turns the sub-agent took."),
}).openapi("SubAgentUsage");
export type SubAgentUsage = z.infer<typeof SubAgentUsage>;

/** A run's token usage: the totals (sub-agents included) and one line per sub-agent. */
export const RunUsage = Usage.extend({
  sub_agents: z
    .array(SubAgentUsage)
    .optional()
    .describe("One line per sub-agent the run started; their tokens are included in the totals above."),
}).openapi("RunUsage");
export type RunUsage = z.infer<typeof RunUsage>;
