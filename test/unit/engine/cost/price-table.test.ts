import { describe, expect, it } from "vitest";
import {
  addCost,
  BUILT_IN_PRICES,
  costOf,
  PRICES_AS_OF,
  priceFor,
} from "../../../../durable-objects/engine/cost/price-table";

describe("the price table", () => {
  it("is dated and lists common models", () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const m of ["gpt-4o", "gpt-4o-mini", "gpt-5", "claude-sonnet-4-5", "gemini-2.5-flash"])
      expect(BUILT_IN_PRICES[m], m).toBeDefined();
  });

  it("finds snapshots and provider-prefixed names under their model", () => {
    expect(priceFor("gpt-4o-2024-08-06")).toEqual(BUILT_IN_PRICES["gpt-4o"]);
    expect(priceFor("gpt-4o-mini-2024-07-18")).toEqual(BUILT_IN_PRICES["gpt-4o-mini"]);
    expect(priceFor("openai/GPT-4o-mini")).toEqual(BUILT_IN_PRICES["gpt-4o-mini"]);
    expect(priceFor("claude-sonnet-4-20250514")).toEqual(BUILT_IN_PRICES["claude-sonnet-4"]);
    expect(priceFor("claude-3-5-haiku-latest")).toEqual(BUILT_IN_PRICES["claude-3-5-haiku"]);
  });

  it("does not guess: a variant that is not a snapshot has no price", () => {
    expect(priceFor("gpt-4o-audio-preview")).toBeNull();
    expect(priceFor("my-finetune")).toBeNull();
  });

  it("prefers the workspace's override, matched the same way", () => {
    const own = { input_per_mtok: 9, output_per_mtok: 9 };
    expect(priceFor("gpt-4o-2024-08-06", { "gpt-4o": own })).toBe(own);
    expect(priceFor("house", { house: own })).toBe(own);
  });

  it("charges cached input at the cached price and keeps unknown costs unknown", () => {
    const price = { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.5 };
    const usage = { input_tokens: 1_000_000, output_tokens: 500_000, total_tokens: 1_500_000 };
    expect(costOf(usage, price)).toBe(6);
    expect(costOf({ ...usage, cached_input_tokens: 400_000 }, price)).toBe(5.4);
    expect(addCost(0.1, 0.2)).toBe(0.3);
    expect(addCost(null, 0.2)).toBeNull();
  });
});
