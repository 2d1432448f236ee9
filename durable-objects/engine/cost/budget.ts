/**
 * Cost budgets: a conversation's `max_cost_usd` (what all its runs may spend together; a job
 * passes its per-run budget to the one conversation of each run) and the workspace's daily
 * budget. Checked before every model turn, so a run that reached one stops before spending more.
 */

/** Why a run was stopped by a budget. */
export interface BudgetStop {
  code: "cost_limit";
  message: string;
}

/** What the loop asks before each model turn. */
export interface RunBudget {
  /** A reason to stop now, or null to go on. */
  beforeTurn(runId: string): Promise<BudgetStop | null>;
}

/** The limits and how to read what was spent against them. */
export interface BudgetSources {
  /** The model the run uses now (its primary, or the fallback it moved on to). */
  model(runId: string): string;
  /** Whether that model has a price (without one, no dollar budget can be kept). */
  priced(runId: string): boolean;
  /** The conversation's budget and its spend so far (null: unknown). */
  conversation: { limit: number | null; spent(): number | null };
  /** The workspace's daily budget and today's spend (UTC). */
  daily: { limit: number | null; spent(): Promise<number> };
}

const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;

const unpriced = (model: string, what: string): BudgetStop => ({
  code: "cost_limit",
  message: `The run stopped: ${what} is set but model ${model} has no price, so it cannot be kept. Add the model to model_prices in /v1/settings.`,
});

/** A {@link RunBudget} over a conversation's and a workspace's limits; null when neither is set. */
export function costBudget(s: BudgetSources): RunBudget | null {
  const { conversation, daily } = s;
  if (conversation.limit === null && daily.limit === null) return null;
  return {
    async beforeTurn(runId) {
      if (conversation.limit !== null) {
        const spent = conversation.spent();
        if (!s.priced(runId) || spent === null) return unpriced(s.model(runId), "max_cost_usd");
        if (spent >= conversation.limit)
          return {
            code: "cost_limit",
            message: `The run stopped: this conversation has spent ${usd(spent)} of its max_cost_usd ${usd(conversation.limit)}.`,
          };
      }
      if (daily.limit !== null) {
        if (!s.priced(runId)) return unpriced(s.model(runId), "the workspace's daily_budget_usd");
        const spent = await daily.spent();
        if (spent >= daily.limit)
          return {
            code: "cost_limit",
            message: `The run stopped: the workspace has spent ${usd(spent)} today (UTC) of its daily_budget_usd ${usd(daily.limit)}.`,
          };
      }
      return null;
    },
  };
}
