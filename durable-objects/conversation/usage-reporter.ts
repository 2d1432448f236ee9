/**
 * Reports what a conversation's runs spend to its workspace's usage ledger, in the background,
 * and remembers the day's total the workspace answers with, for the daily budget.
 */
import type { UsageEntry } from "../../schemas/usage";
import type { Usage } from "../engine/model/model-types";
import type { WorkspaceObject } from "../workspace/workspace-object";

/** Who the reports are about. */
export interface ReportSubject {
  conversationId: string;
  jobId: string | null;
  model: string;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Sends usage reports without holding up the run; failures are logged and dropped. */
export class UsageReporter {
  private last: { day: string; spent: Promise<number | null> } | null = null;

  constructor(
    private readonly workspace: () => DurableObjectStub<WorkspaceObject>,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  /** A model call's tokens and cost. */
  spend(subject: ReportSubject, usage: Usage, cost: number | null): void {
    this.send(subject, {
      runs: 0,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cached_input_tokens: usage.cached_input_tokens ?? 0,
      cost_usd: cost,
    });
  }

  /** Browser time and its cost. */
  browserTime(subject: ReportSubject, seconds: number, cost: number): void {
    this.send(subject, {
      runs: 0,
      input_tokens: 0,
      output_tokens: 0,
      cached_input_tokens: 0,
      browser_seconds: seconds,
      cost_usd: cost,
    });
  }

  /** A run ended. */
  runEnded(subject: ReportSubject): void {
    this.send(subject, { runs: 1, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: 0 });
  }

  /** Today's dollars: the answer to the latest report, else asked now. */
  async spentToday(): Promise<number> {
    const last = this.last?.day === today() ? await this.last.spent : null;
    return last ?? (await this.workspace().spentToday());
  }

  private send(s: ReportSubject, part: Omit<UsageEntry, "at" | "conversation_id" | "job_id" | "model">) {
    const entry: UsageEntry = {
      at: Date.now(),
      conversation_id: s.conversationId,
      job_id: s.jobId,
      model: s.model,
      ...part,
    };
    const spent = (this.workspace().recordUsage(entry) as Promise<number>).catch((err: unknown) => {
      console.warn("usage report failed", (err as Error).message);
      return null;
    });
    this.last = { day: today(), spent };
    this.waitUntil(spent);
  }
}
