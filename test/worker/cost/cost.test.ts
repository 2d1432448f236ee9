import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  getConversation,
  newWorkspaceKey,
  runMessage,
  script,
  uniqueKey,
} from "../helpers";
import { createJob, settledRun } from "../job/jobs-helpers";

/** Two turns: a tool call (1000 in / 200 out), then the answer (2000 in, 500 of them cached / 100 out). */
async function scriptTwoTurns(key: string) {
  await script(key, [
    {
      tool_calls: [{ name: "create_task", arguments: { subject: "price it" } }],
      usage: { prompt_tokens: 1000, completion_tokens: 200 },
    },
    {
      text: "priced",
      usage: { prompt_tokens: 2000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 500 } },
    },
  ]);
}

async function runWait(id: string, token?: string) {
  const res = await api(`/v1/conversations/${id}/messages`, {
    method: "POST",
    json: { content: "go", stream: false },
    token,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string; usage: Record<string, unknown> };
}

describe("cost in dollars", () => {
  it("prices a built-in model (snapshot names included) on RUN_FINISHED, the result and the conversation", async () => {
    // gpt-4o-mini: $0.15 in, $0.075 cached in, $0.60 out per million tokens.
    const key = "gpt-4o-mini-2024-07-18";
    await scriptTwoTurns(key);
    const id = await createConversation(key);
    const events = await runMessage(id, "go");
    const finished = events.at(-1)!.data as { type: string; usage: Record<string, unknown>[] };
    expect(finished.type).toBe("RUN_FINISHED");
    // (1000×0.15 + 200×0.6)/1e6 = 0.00027; (1500×0.15 + 500×0.075 + 100×0.6)/1e6 = 0.0003225 → 0.000323
    expect(finished.usage[0]).toMatchObject({
      model: key,
      inputTokens: 3000,
      outputTokens: 300,
      cachedInputTokens: 500,
      cost_usd: 0.000593,
    });
    const details = await getConversation(id);
    expect(details.usage).toEqual({
      input_tokens: 3000,
      output_tokens: 300,
      total_tokens: 3300,
      cached_input_tokens: 500,
      cost_usd: 0.000593,
    });

    await scriptTwoTurns(key);
    const result = await runWait(id);
    expect(result.usage).toMatchObject({ total_tokens: 3300, cost_usd: 0.000593 });
    expect((await getConversation(id)).usage).toMatchObject({ total_tokens: 6600, cost_usd: 0.001186 });
  });

  it("uses the workspace's model_prices over the built-in table, per workspace", async () => {
    const ws = await newWorkspaceKey("prices");
    const custom = uniqueKey("house-model");
    const put = await api("/v1/settings", {
      method: "PUT",
      token: ws.key,
      json: {
        model_prices: {
          [custom]: { input_per_mtok: 1, output_per_mtok: 2 },
          "gpt-4o-mini": { input_per_mtok: 10, output_per_mtok: 20, cached_input_per_mtok: 5 },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { model_prices: unknown }).model_prices).toEqual({
      [custom]: { input_per_mtok: 1, output_per_mtok: 2 },
      "gpt-4o-mini": { input_per_mtok: 10, output_per_mtok: 20, cached_input_per_mtok: 5 },
    });

    await scriptTwoTurns(custom);
    const a = await createConversation(custom, {}, ws.key);
    // cached input falls back to the input price: (3000×1 + 300×2)/1e6
    expect((await runWait(a, ws.key)).usage.cost_usd).toBe(0.0036);

    const snapshot = "gpt-4o-mini-2024-07-18";
    await scriptTwoTurns(snapshot);
    const b = await createConversation(snapshot, {}, ws.key);
    // (1000×10 + 200×20)/1e6 + (1500×10 + 500×5 + 100×20)/1e6
    expect((await runWait(b, ws.key)).usage.cost_usd).toBe(0.0335);

    // Another workspace still sees the built-in price.
    await scriptTwoTurns(snapshot);
    const c = await createConversation(snapshot);
    expect((await runWait(c)).usage.cost_usd).toBe(0.000593);

    // null removes one override; the rest stay.
    const removed = await api("/v1/settings", {
      method: "PUT",
      token: ws.key,
      json: { model_prices: { "gpt-4o-mini": null } },
    });
    expect(((await removed.json()) as { model_prices: unknown }).model_prices).toEqual({
      [custom]: { input_per_mtok: 1, output_per_mtok: 2 },
    });
    const cleared = await api("/v1/settings", { method: "PUT", token: ws.key, json: { model_prices: null } });
    expect(((await cleared.json()) as { model_prices: unknown }).model_prices).toEqual({});
  });

  it("reports cost_usd null, never 0, for a model without a price", async () => {
    const key = uniqueKey("unpriced");
    await scriptTwoTurns(key);
    const id = await createConversation(key);
    const finished = (await runMessage(id, "go")).at(-1)!.data as unknown as {
      usage: Record<string, unknown>[];
    };
    expect(finished.usage[0]).toMatchObject({ totalTokens: 3300, cost_usd: null });
    expect((await getConversation(id)).usage).toMatchObject({ total_tokens: 3300, cost_usd: null });
    await scriptTwoTurns(key);
    expect((await runWait(id)).usage).toMatchObject({ total_tokens: 3300, cost_usd: null });
  });

  it("shows the cost of each job run in the ledger", async () => {
    const key = "claude-haiku-4-5-20251001";
    await script(key, [
      {
        tool_calls: [{ name: "finish", arguments: { result: "report" } }],
        usage: { prompt_tokens: 10_000, completion_tokens: 2_000 },
      },
    ]);
    const job = await createJob({ name: "Priced job", prompt: "Report.", schedule: "0 7 * * *", model: key });
    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const run = await settledRun(job.id);
    // claude-haiku-4-5: $1 in, $5 out per million: 0.01 + 0.01
    expect(run.tokens).toMatchObject({ total_tokens: 12_000, cost_usd: 0.02 });
  });

  it("refuses bad prices and budgets with 400 in the one error shape", async () => {
    for (const body of [
      { model_prices: { "gpt-4o": { input_per_mtok: -1, output_per_mtok: 1 } } },
      { model_prices: { "gpt-4o": { input_per_mtok: 1 } } },
      { model_prices: { "gpt-4o": { input_per_mtok: "1", output_per_mtok: 1 } } },
      { model_prices: { "gpt-4o": { input_per_mtok: 1, output_per_mtok: 1, per_call: 2 } } },
      { model_prices: [] },
      { daily_budget_usd: 0 },
      { daily_budget_usd: "5" },
    ]) {
      const res = await api("/v1/settings", { method: "PUT", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: { code: string; message: string } };
      expect(err.error.code).toBe("invalid_request");
    }
    const bad = await api("/v1/conversations", { method: "POST", json: { max_cost_usd: -2 } });
    expect(bad.status).toBe(400);
  });
});
