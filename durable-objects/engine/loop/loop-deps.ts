/** What the agent loop needs from the object that hosts it, as small interfaces. */
import type { CirrusEvent } from "../../../shared/events";
import type { GateResult } from "../approvals/approvals";
import type { RunBudget } from "../cost/budget";
import type { ResultSpill } from "../files/result-spill";
import type { ModelClient, ToolCall, Usage } from "../model/model-types";
import type { EventLog } from "../store/event-log";
import type { MessageStore } from "../store/message-store";
import type { RunStatus, RunStore } from "../store/run-store";
import type { Tool, ToolRegistry } from "../tools/tool";
import type { RetryCounters, RunnerLimits } from "../tools/tool-runner";
import type { StateHolder } from "./conversation-state";
import type { SteeringQueue } from "./steering";

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

/** The approval check before each tool call: run it (with which arguments), hold it, or answer it. */
export interface ApprovalGate {
  gate(runId: string, call: ToolCall, tool: Tool | undefined, canHold?: boolean): Promise<GateResult>;
  /** Whether a held call is still waiting (a decision may arrive while other calls run). */
  isHeld(runId: string, toolCallId: string): boolean;
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
  /** The approval policy's hold before each call; absent = every call runs. */
  approvals?: ApprovalGate;
  /** Dollar budgets checked before every model turn; absent or null when none is set. */
  budget?: RunBudget | null;
}

/** Everything one run needs, handed in by the conversation object. */
export interface LoopDeps extends StepDeps {
  runs: RunStore;
  log: EventLog;
  /** JSON Schema the run's result must match, if any. */
  outputSchema: Record<string, unknown> | null;
  /** Messages sent with `steer: true`, waiting for the run's next model turn. */
  steering?: SteeringQueue;
  /** Settles what a run leaves behind when it ends (its pending approvals), before its terminal event. */
  onRunEnd?(runId: string): void;
}
