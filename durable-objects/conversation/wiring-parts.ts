/** The parts of a conversation its wiring (./conversation-wiring.ts) reads and writes. */
import type { Approvals } from "../engine/approvals/approvals";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import type { StateHolder } from "../engine/loop/conversation-state";
import type { LoopDeps } from "../engine/loop/loop-deps";
import type { ReadLog } from "../engine/research/read-log";
import type { ReviewStore } from "../engine/research/review-store";
import type { EventLog } from "../engine/store/event-log";
import type { MessageStore } from "../engine/store/message-store";
import type { RunStore } from "../engine/store/run-store";
import type { SteerQueue } from "../engine/store/steer-queue";
import type { ConversationMeta } from "./conversation-meta";

/** The conversation's parts the wiring reads and writes. */
export interface WiringParts {
  env: Env;
  storage: DurableObjectStorage;
  sql: SqlStorage;
  config: RuntimeConfig;
  meta: ConversationMeta;
  runs: RunStore;
  messages: MessageStore;
  log: EventLog;
  state: StateHolder;
  /** The hold before tool calls that need a person's approval. */
  approvals: Approvals;
  /** Messages sent with `steer: true`. */
  steering: SteerQueue;
  reads: ReadLog;
  reviews: ReviewStore;
  /** The signal that stops the run being driven now. */
  signal(): AbortSignal;
  emit(runId: string | null, event: Parameters<LoopDeps["emit"]>[1]): void;
  /** Keeps background work (usage reports, trace export) alive after a request. */
  waitUntil(p: Promise<unknown>): void;
}
