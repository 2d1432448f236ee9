/** What the agent loop needs from the object that hosts it, as small interfaces. */

import type { CirrusEvent } from "../../../schemas/events";
import type { RunReview } from "../../../schemas/research";
import type { GateResult } from "../approvals/approvals";
import type { RunBudget } from "../cost/budget";
import type { ResultSpill } from "../files/result-spill";
import type { Redaction } from "../secrets/secret-redactor";
import type { RunModels } from "../model/fallback";
import type { ModelClient, ToolCall, Usage } from "../model/model-types";
import type { ClearedResults } from "../store/cleared-results";
import type { EventLog } from "../store/event-log";
import type { MessageStore } from "../store/message-store";
import type { RunStatus, RunStore, SubAgentRef } from "../store/run-store";
import type { SteerMessage } from "../store/steer-queue";
import type { LoopTracer } from "../telemetry/gen-ai-tracer";
import type { Tool, ToolRegistry } from "../tools/tool";
import type { RetryCounters, RunnerLimits } from "../tools/tool-runner";
import type { StateHolder } from "./conversation-state";

/** Per-conversation settings the loop obeys. */
export interface LoopSettings {
  model: string;
  /** Models a turn moves on to, in order, when `model` fails transiently (model/fallback.ts). */
  fallbackModels?: string[];
  instructions: string | null;
  maxSteps: number;
  /** Model turns in a row whose tool calls all failed before the run fails; absent: the default (failure-streak.ts). */
  maxConsecutiveFailures?: number;
  limits: RunnerLimits;
  /** The model's context window in tokens; older turns are summarised when near it. */
  contextTokens: number;
  /** Old bulky tool results are cleared once a request would pass this many tokens; 0 or absent: never. */
  clearAtTokens?: number;
  /** How many of the newest bulky tool results a clearing step keeps (default {@link DEFAULT_KEEP_RESULTS}). */
  keepResults?: number;
  /** Tokens (input + output) a run may use before it is stopped; null or absent for no budget. */
  maxTokens?: number | null;
  /** What our own system prompt is built from; absent = the main agent's, in UTC, now. */
  prompt?: PromptSettings;
}

/** Whose system prompt a scope gets, and the zone its date notes are written in. */
export interface PromptSettings {
  role: "agent" | "sub_agent";
  timeZone: string | null;
  unattended?: boolean;
}

/** Bulky tool results a clearing step keeps when no number is set. */
export const DEFAULT_KEEP_RESULTS = 1;

/** The context summary that stands in for the oldest messages. */
export interface ContextSummary {
  /** Messages with id up to this are covered by the summary. */
  upToId: number;
  text: string;
}

/** Where one scope's context summary is kept (the conversation's, or a sub-agent's own). */
export interface SummaryStore {
  get(): ContextSummary | null;
  set(s: ContextSummary): void;
}

/** Where a run's steps, tokens and retry counters are recorded. */
export interface RunLedger {
  /** A finished model turn; `agent` names the sub-agent that took it (its line, not the run's steps). */
  addStep(runId: string, usage: Usage, agent?: SubAgentRef): void;
  /** Tokens spent outside a step (e.g. a summary); `agent` as above. */
  addUsage(runId: string, usage: Usage, agent?: SubAgentRef): void;
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
  /** The fallback model each run moved on to; absent: every turn goes to `settings.model`. */
  runModels?: RunModels;
  tools: ToolRegistry;
  settings: LoopSettings;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Writes an event to the log (and then to listeners). */
  emit(runId: string, event: CirrusEvent): void;
  summary: SummaryStore;
  /** Which of this scope's tool results are cleared from its context (and their stubs). */
  cleared: ClearedResults;
  /** Where oversized tool results are saved; without it they are cut (and nothing is ever cleared). */
  spill?: ResultSpill;
  /** Typed secrets' values (and encodings) taken out of the model's text and the run's output. */
  redaction?: Redaction;
  /** The approval policy's hold before each call; absent = every call runs. */
  approvals?: ApprovalGate;
  /** Dollar budgets checked before every model turn; absent or null when none is set. */
  budget?: RunBudget | null;
  /** Trace spans for model turns and tool calls; absent when tracing is off. */
  tracer?: LoopTracer | null;
}

/** Everything one run needs, handed in by the conversation object. */
export interface LoopDeps extends StepDeps {
  runs: RunStore;
  log: EventLog;
  /** JSON Schema the run's result must match, if any. */
  outputSchema: Record<string, unknown> | null;
  /** The summary store of a message scope ("" is the conversation's own). */
  summaryFor(scope: string): SummaryStore;
  /** Messages sent with `steer: true`, waiting for the run's next model turn. */
  steering?: SteeringQueue;
  /** Settles what a run leaves behind when it ends (its pending approvals), before its terminal event. */
  onRunEnd?(runId: string): void;
  /** Reviews a succeeded run's result (citations, success criteria): send it back, or record the review. */
  review?(runId: string, output: unknown): Promise<RunVerdict>;
}

/** A review's decision: `revise` sends the run back with that user message; else `review` is recorded. */
export interface RunVerdict {
  revise: string | null;
  review: RunReview;
}

/** How one loop ended. */
export type LoopOutcome =
  | { kind: "succeeded"; output: unknown }
  | { kind: "failed"; code: string; message: string }
  | { kind: "cancelled" }
  | { kind: "suspended" };

/** What the model's answer without tool calls comes to: an outcome, or "go on" (e.g. after a reminder). */
export type FinalAnswer = { done: true; outcome: LoopOutcome } | { done: false };

/** The counters the loop's guards read. */
export interface LoopProgress {
  /** Model turns this scope has taken. */
  steps: number;
  /** Tokens counted against `settings.maxTokens` (for a sub-agent: its whole run's). */
  tokens: number;
  cancelled: boolean;
}

/**
 * Who one loop runs for — the conversation's run, or a sub-agent inside it. The loop and its
 * steps see only this, so every guard (step and token budgets, context compaction, repeated-call
 * detection, interrupted-stream repair) applies to both alike.
 */
export interface LoopScope extends StepDeps {
  /** The run this loop belongs to (a sub-agent's is its parent's). */
  runId: string;
  /** Names the scope in events and errors: "run", or the sub-agent's id. */
  name: string;
  /** Fresh counters for the guards; read before every step. */
  progress(): LoopProgress;
  /** Events this scope emitted in earlier attempts (to close what an interruption left open). */
  pastEvents(): Iterable<CirrusEvent>;
  /** What an answer without tool calls means for this scope. */
  finalAnswer(text: string): FinalAnswer;
  /** The tool runner's retry counters, kept across turns. */
  retries: RetryCounters;
  /** Messages a person steers into the loop before its next model turn (a run's only). */
  steer?: {
    /** Moves the waiting messages into the context. */
    apply(): void;
    /** Whether a message arrived during the turn (it gets a turn of its own). */
    pending(): boolean;
  };
}

/** The loop's view of the steering queue (steering.ts applies it). */
export interface SteeringQueue {
  has(runId: string): boolean;
  take(runId: string, as?: "applied" | "requeued"): SteerMessage[];
}
