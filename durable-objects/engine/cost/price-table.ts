/**
 * The built-in price table and the cost of a model call. Prices are the providers' published
 * list prices for standard-tier text tokens, in US dollars per million tokens, as of
 * {@link PRICES_AS_OF}; a workspace overrides any of them (or adds models) with
 * `PUT /v1/settings {"model_prices": …}`. A model found in neither reports `cost_usd: null`.
 */
import type { ModelPrice, ModelPrices } from "../../../schemas/cost";
import type { Usage } from "../model/model-types";

/** The day the built-in prices were read from the providers' price pages. */
export const PRICES_AS_OF = "2025-11-24";

const p = (input: number, output: number, cached?: number): ModelPrice =>
  cached === undefined
    ? { input_per_mtok: input, output_per_mtok: output }
    : { input_per_mtok: input, output_per_mtok: output, cached_input_per_mtok: cached };

/** Built-in prices (USD per million tokens): OpenAI, Anthropic, Google, DeepSeek, Workers AI. */
export const BUILT_IN_PRICES: Readonly<ModelPrices> = Object.freeze({
  // OpenAI
  "gpt-5.1": p(1.25, 10, 0.125),
  "gpt-5": p(1.25, 10, 0.125),
  "gpt-5-mini": p(0.25, 2, 0.025),
  "gpt-5-nano": p(0.05, 0.4, 0.005),
  "gpt-4.1": p(2, 8, 0.5),
  "gpt-4.1-mini": p(0.4, 1.6, 0.1),
  "gpt-4.1-nano": p(0.1, 0.4, 0.025),
  "gpt-4o": p(2.5, 10, 1.25),
  "gpt-4o-mini": p(0.15, 0.6, 0.075),
  o1: p(15, 60, 7.5),
  o3: p(2, 8, 0.5),
  "o3-mini": p(1.1, 4.4, 0.55),
  "o4-mini": p(1.1, 4.4, 0.275),
  // Anthropic (cached = cache reads)
  "claude-opus-4-5": p(5, 25, 0.5),
  "claude-opus-4-1": p(15, 75, 1.5),
  "claude-opus-4": p(15, 75, 1.5),
  "claude-sonnet-4-5": p(3, 15, 0.3),
  "claude-sonnet-4": p(3, 15, 0.3),
  "claude-3-7-sonnet": p(3, 15, 0.3),
  "claude-haiku-4-5": p(1, 5, 0.1),
  "claude-3-5-haiku": p(0.8, 4, 0.08),
  // Google (prompts up to 200k tokens)
  "gemini-2.5-pro": p(1.25, 10),
  "gemini-2.5-flash": p(0.3, 2.5),
  "gemini-2.5-flash-lite": p(0.1, 0.4),
  "gemini-2.0-flash": p(0.1, 0.4),
  // DeepSeek (cache miss / cache hit)
  "deepseek-chat": p(0.28, 0.42, 0.028),
  "deepseek-reasoner": p(0.28, 0.42, 0.028),
  // Workers AI (the default model without an OpenAI key)
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": p(0.293, 2.253),
});

/** Version suffixes that name a snapshot of the same model: dates and `-latest`. */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

function lookup(table: Readonly<ModelPrices>, name: string): ModelPrice | null {
  return Object.hasOwn(table, name) ? table[name]! : null;
}

/** The names a model is looked up under, most specific first: as given, without a provider prefix, without a snapshot suffix. */
export function priceKeys(model: string): string[] {
  const keys = [model];
  const lower = model.toLowerCase();
  const bare = lower.startsWith("@") ? lower : lower.replace(/^[a-z0-9_.-]+\//, "");
  for (const k of [lower, bare, bare.replace(SNAPSHOT_SUFFIX, "")]) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The price of a model: the workspace's override first, then the built-in table; null when unknown. */
export function priceFor(model: string, overrides: Readonly<ModelPrices> = {}): ModelPrice | null {
  const keys = priceKeys(model);
  for (const k of keys) {
    const found = lookup(overrides, k);
    if (found) return found;
  }
  for (const k of keys) {
    const found = lookup(BUILT_IN_PRICES, k);
    if (found) return found;
  }
  return null;
}

/** Dollars for one call's tokens at a price (cached input tokens at the cached price). */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cached_input_tokens ?? 0, usage.input_tokens);
  const cachedPrice = price.cached_input_per_mtok ?? price.input_per_mtok;
  const dollars =
    ((usage.input_tokens - cached) * price.input_per_mtok +
      cached * cachedPrice +
      usage.output_tokens * price.output_per_mtok) /
    1_000_000;
  return roundUsd(dollars);
}

/** Rounds to a millionth of a dollar, so sums stay readable. */
export function roundUsd(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** Adds two costs; unknown (null) stays unknown. */
export function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : roundUsd(a + b);
}
