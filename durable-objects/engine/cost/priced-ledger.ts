/**
 * The run ledger with prices: every model call's tokens are recorded with their cost in
 * dollars, and handed to a spend listener (the workspace's usage ledger, budgets).
 */
import type { ModelPrice } from "../../../schemas/cost";
import type { RunLedger } from "../loop/loop-deps";
import type { Usage } from "../model/model-types";
import type { RunStore } from "../store/run-store";
import { costOf } from "./price-table";

/** Told of every model call a run paid for: its tokens and cost (null when unpriced). */
export type SpendListener = (runId: string, usage: Usage, cost: number | null) => void;

/** The price of a run's calls: one price, or the price of the model the run uses now. */
export type RunPrice = ModelPrice | null | ((runId: string) => ModelPrice | null);

/** A {@link RunLedger} over the run store that prices each call at `price` (null: unknown). */
export function pricedLedger(runs: RunStore, price: RunPrice, onSpend?: SpendListener): RunLedger {
  const cost = (id: string, u: Usage) => {
    const p = typeof price === "function" ? price(id) : price;
    return p ? costOf(u, p) : null;
  };
  return {
    addStep: (id, u, agent) => {
      const c = cost(id, u);
      runs.addStep(id, u, c, agent);
      onSpend?.(id, u, c);
    },
    addUsage: (id, u, agent) => {
      const c = cost(id, u);
      runs.addUsage(id, u, c, agent);
      onSpend?.(id, u, c);
    },
    saveRetries: (id, r) => runs.saveRetries(id, r),
    setStatus: (id, s) => runs.setStatus(id, s),
  };
}
