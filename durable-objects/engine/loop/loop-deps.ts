/** What the agent loop needs from the object that hosts it, as small interfaces. */
import type { CirrusEvent } from "../../../shared/events";
import type { RunBudget } from "../cost/budget";
import type { ResultSpill } from "../files/result-spill";
import type { ModelClient, Usage } from "../model/model-types";
import type { EventLog } from "../store/event-log";
import type { MessageStore } from "../store/message-store";
import type { RunStatus, RunStore } from "../store/run-store";
import type { ToolRegistry } from "../tools/tool";
import type { RetryCounters, RunnerLimits } from "../tools/tool-runner";
import type { StateHolder } from "./conversation-state";

/** Per-conversation settings the loop obeys. */
export interface LoopSettings {
  model: string;
  instructions: string | null;
  maxSteps: number;
  limits: RunnerLimits;
  /** The model's context window in tokens; older turns are summarised when near it. */
  contextTokens: number;
  /** Tokens (input + output) a run may use before it is stopped; null or absent for no budget. */
  maxTokens?: number | null;
}

/** The context summary that stands in for the oldest messages. */
export interface ContextSummary {
  /** Messages with id up to this are covered by the summary. */
  upToId: number;
  text: string;
}

/** Where a run's steps, tokens and retry counters are recorded. */
export interface RunLedger {
  addStep(runId: string, usage: Usage): void;
  addUsage(runId: string, usage: Usage): void;
  saveRetries(runId: string, retries: RetryCounters): void;
  setStatus(runId: string, status: RunStatus): void;
}

/** What one model turn or tool step needs (a run, or a sub-agent inside one). */
export interface StepDeps {
  conversationId: string;
  workspaceId: string;
  ledger: RunLedger;
  messages: MessageStore;
  state: StateHolder;
  model: ModelClient;
  tools: ToolRegistry;
  settings: LoopSettings;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Writes an event to the log (and then to listeners). */
  emit(runId: string, event: CirrusEvent): void;
  summary: { get(): ContextSummary | null; set(s: ContextSummary): void };
  /** Where oversized tool results are saved; without it they are cut. */
  spill?: ResultSpill;
  /** Dollar budgets checked before every model turn; absent or null when none is set. */
  budget?: RunBudget | null;
}

/** Everything one run needs, handed in by the conversation object. */
export interface LoopDeps extends StepDeps {
  runs: RunStore;
  log: EventLog;
  /** JSON Schema the run's result must match, if any. */
  outputSchema: Record<string, unknown> | null;
}
