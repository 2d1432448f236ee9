import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOf } from "../../../../durable-objects/engine/cost/price-table";
import { createOpenAIClient } from "../../../../durable-objects/engine/model/openai-client";
import { usageFromWire } from "../../../../durable-objects/engine/model/wire-usage";
import { type ScriptedModel, startScriptedModel } from "../../../support/scripted-model";
import { CACHE_SHAPES, type CacheShape, withCachedTokens } from "../../../support/scripted-model-usage";

let llm: ScriptedModel;
beforeAll(async () => {
  llm = await startScriptedModel();
});
afterAll(async () => {
  await llm.close();
});

const client = () =>
  createOpenAIClient({
    apiKey: "sk-test",
    baseURL: `${llm.url}/v1`,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });

async function put(key: string, body: unknown): Promise<void> {
  const res = await fetch(`${llm.url}/__scripts/${key}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

const ask = (key: string, text: string) =>
  client().complete({ model: key, messages: [{ role: "user", content: text }], tools: [] }, () => {});

describe("cached input tokens read from the wire", () => {
  it("come from each provider's usage shape", () => {
    const base = { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 };
    expect(usageFromWire({ ...base, prompt_tokens_details: { cached_tokens: 800 } })).toEqual({
      input_tokens: 1000,
      output_tokens: 20,
      total_tokens: 1020,
      cached_input_tokens: 800,
    });
    expect(usageFromWire({ ...base, prompt_cache_hit_tokens: 700 }).cached_input_tokens).toBe(700);
    expect(usageFromWire({ ...base, cache_read_input_tokens: 600 }).cached_input_tokens).toBe(600);
    expect(usageFromWire(base)).toEqual({ input_tokens: 1000, output_tokens: 20, total_tokens: 1020 });
  });

  it("count as input when a gateway's prompt count leaves the cache reads out", () => {
    expect(usageFromWire({ prompt_tokens: 50, completion_tokens: 10, cache_read_input_tokens: 900 })).toEqual(
      {
        input_tokens: 950,
        output_tokens: 10,
        total_tokens: 960,
        cached_input_tokens: 900,
      },
    );
  });

  for (const shape of CACHE_SHAPES) {
    for (const streamed of [true, false]) {
      it(`reach the turn's usage from a ${streamed ? "streamed" : "non-streamed"} ${shape}-shaped answer`, async () => {
        const key = `cache-${shape}-${streamed}-${crypto.randomUUID()}`;
        const usage = withCachedTokens(
          { prompt_tokens: 2000, completion_tokens: 5 },
          1536,
          shape as CacheShape,
        );
        await put(key, { turns: [{ text: "hello", usage, ...(streamed ? {} : { json_response: true }) }] });
        const turn = await ask(key, "hi");
        expect(turn.text).toBe("hello");
        expect(turn.usage).toEqual({
          input_tokens: 2000,
          output_tokens: 5,
          total_tokens: 2005,
          cached_input_tokens: 1536,
        });
      });
    }
  }

  it("are what an exact-prefix cache would serve when the scripted model computes them", async () => {
    const key = `cache-auto-${crypto.randomUUID()}`;
    await put(key, { turns: [{ text: "a" }, { text: "b" }, { text: "c" }], cache: "deepseek" });
    const long = "the same long opening ".repeat(200);
    const first = await ask(key, long);
    const second = await ask(key, long);
    const third = await ask(key, `different ${long}`);
    expect(first.usage.cached_input_tokens).toBeUndefined();
    expect(second.usage.cached_input_tokens).toBeGreaterThan(second.usage.input_tokens * 0.95);
    expect(third.usage.cached_input_tokens ?? 0).toBeLessThan(third.usage.input_tokens * 0.05);
  });

  it("are priced at the cached price", () => {
    const price = { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.2 };
    const usage = usageFromWire({
      prompt_tokens: 1_000_000,
      completion_tokens: 0,
      prompt_cache_hit_tokens: 750_000,
    });
    expect(costOf(usage, price)).toBe(0.25 * 2 + 0.75 * 0.2);
  });
});
