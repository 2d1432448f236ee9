/**
 * What runs cost in dollars: a model's price (per million tokens), the workspace's price
 * overrides and budgets, as one zod schema each for settings, validation and OpenAPI.
 */
import { z } from "@hono/zod-openapi";

const perMtok = z.number().min(0).max(100_000);

/** One model's price in US dollars per million tokens. */
export const ModelPrice = z
  .strictObject({
    input_per_mtok: perMtok.describe("USD per million input (prompt) tokens."),
    output_per_mtok: perMtok.describe("USD per million output (completion) tokens."),
    cached_input_per_mtok: perMtok
      .optional()
      .describe("USD per million cached input tokens (default: the input price)."),
  })
  .openapi("ModelPrice");
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Model name → price. */
export const ModelPrices = z
  .record(z.string().min(1).max(200), ModelPrice)
  .refine((m) => Object.keys(m).length <= 500, "at most 500 model prices")
  .openapi("ModelPrices");
export type ModelPrices = z.infer<typeof ModelPrices>;

/** A partial update of the overrides: a price sets a model, `null` removes its override. */
export const ModelPricesUpdate = z
  .record(z.string().min(1).max(200), ModelPrice.nullable())
  .refine((m) => Object.keys(m).length <= 500, "at most 500 model prices")
  .openapi({
    description:
      'Per-model prices that override the built-in table, e.g. {"gpt-4o": {"input_per_mtok": 2.5, "output_per_mtok": 10}}; null removes one override; the whole field null removes all.',
  });

/** A budget in US dollars. */
export const BudgetUsd = z.number().positive().max(1_000_000);

/** Dollars spent, or null when the model has no price (never 0 for an unknown price). */
export const CostUsd = z
  .number()
  .nullable()
  .describe("Cost in US dollars from the price table; null when the model has no price.");

/** The workspace's cost settings as stored. */
export const CostSettings = z.object({
  model_prices: ModelPrices,
  daily_budget_usd: BudgetUsd.nullable(),
});
export type CostSettings = z.infer<typeof CostSettings>;

/** What a workspace starts with: the built-in prices only, no daily budget. */
export const DEFAULT_COST_SETTINGS: CostSettings = { model_prices: {}, daily_budget_usd: null };
