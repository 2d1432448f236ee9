import { describe, expect, it } from "vitest";
import { api, createConversation, script, uniqueKey } from "../helpers";

describe("a run with sub-agents", () => {
  it("shows each sub-agent's own usage line in the run's usage, counted in the totals", async () => {
    const key = uniqueKey("sub-usage");
    const usage = (prompt_tokens: number, completion_tokens: number) => ({
      usage: { prompt_tokens, completion_tokens },
    });
    await script(key, [
      {
        tool_calls: [
          {
            id: "call_r",
            name: "agent",
            arguments: { prompt: "look it up", description: "lookup", type: "researcher" },
          },
        ],
        ...usage(10, 5),
      },
      { text: "found it", ...usage(100, 20) },
      { text: "here is the answer", ...usage(200, 10) },
    ]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "go", stream: false },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { output: string; usage: Record<string, unknown> };
    expect(body.output).toBe("here is the answer");
    expect(body.usage).toEqual({
      input_tokens: 310,
      output_tokens: 35,
      total_tokens: 345,
      cost_usd: null,
      sub_agents: [
        {
          id: "call_r",
          type: "researcher",
          label: "lookup",
          steps: 1,
          input_tokens: 100,
          output_tokens: 20,
          total_tokens: 120,
          cost_usd: null,
        },
      ],
    });
  });
});
