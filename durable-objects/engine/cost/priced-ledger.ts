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

/** A {@link RunLedger} over the run store that prices each call at `price` (null: unknown). */
export function pricedLedger(runs: RunStore, price: ModelPrice | null, onSpend?: SpendListener): RunLedger {
  const cost = (u: Usage) => (price ? costOf(u, price) : null);
  return {
    addStep: (id, u, agent) => {
      const c = cost(u);
      runs.addStep(id, u, c, agent);
      onSpend?.(id, u, c);
    },
    addUsage: (id, u, agent) => {
      const c = cost(u);
      runs.addUsage(id, u, c, agent);
      onSpend?.(id, u, c);
    },
    saveRetries: (id, r) => runs.saveRetries(id, r),
    setStatus: (id, s) => runs.setStatus(id, s),
  };
}
