/**
 * What a conversation's runs spend: model prices under the workspace's table, the run ledger that
 * prices each call and reports it to the workspace's usage ledger, and the budgets checked before
 * each model turn.
 */
import { type CostSettings, DEFAULT_COST_SETTINGS } from "../../schemas/cost";
import { costBudget, type RunBudget } from "../engine/cost/budget";
import { priceFor } from "../engine/cost/price-table";
import { pricedLedger } from "../engine/cost/priced-ledger";
import type { RunLedger } from "../engine/loop/loop-deps";
import type { WorkspaceObject } from "../workspace/workspace-object";
import type { ConversationInfo } from "./conversation-meta";
import { type ReportSubject, UsageReporter } from "./usage-reporter";
import type { WiringParts } from "./wiring-parts";

/** The prices, ledger, budgets and usage reports of one conversation. */
export class ConversationSpending {
  /** The workspace's price overrides and daily budget, as of the last tool set built. */
  cost: CostSettings = DEFAULT_COST_SETTINGS;
  readonly usage: UsageReporter;

  constructor(
    private readonly p: Pick<WiringParts, "meta" | "runs" | "waitUntil">,
    workspace: () => DurableObjectStub<WorkspaceObject>,
  ) {
    this.usage = new UsageReporter(workspace, p.waitUntil);
  }

  /** The run ledger that prices each call and reports it to the workspace's usage ledger. */
  ledger(model: string): RunLedger {
    return pricedLedger(this.p.runs, this.price(model), (_runId, usage, cost) =>
      this.usage.spend(this.subject(), usage, cost),
    );
  }

  /**
   * The agent loop's ledger: each call priced at, and reported under, the model the run uses now
   * (its primary, or the fallback that answered).
   */
  runLedger(modelOf: (runId: string) => string): RunLedger {
    return pricedLedger(
      this.p.runs,
      (runId) => this.price(modelOf(runId)),
      (runId, usage, cost) => this.usage.spend(this.subject(modelOf(runId)), usage, cost),
    );
  }

  /** The conversation's max_cost_usd and the workspace's daily budget, checked before each model turn. */
  budget(info: ConversationInfo, modelOf: (runId: string) => string = () => info.model): RunBudget | null {
    return costBudget({
      model: modelOf,
      priced: (runId) => this.price(modelOf(runId)) !== null,
      conversation: { limit: info.max_cost_usd ?? null, spent: () => this.p.runs.totalUsage().cost_usd },
      daily: { limit: this.cost.daily_budget_usd, spent: () => this.usage.spentToday() },
    });
  }

  /** A model's price under the workspace's table (null: unknown, costs stay null). */
  price(model: string) {
    return priceFor(model, this.cost.model_prices);
  }

  /** Who the usage reports are about: the conversation, its job and its model (default: its primary). */
  subject(model?: string): ReportSubject {
    const info = this.p.meta.info()!;
    return { conversationId: info.id, jobId: this.p.meta.job()?.job_id ?? null, model: model ?? info.model };
  }
}
