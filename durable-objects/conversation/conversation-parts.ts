/**
 * Assembles one conversation's parts over its storage: the stores (meta, events, messages, runs,
 * the state record, approvals, steering), the wiring that builds its tools, the driver of its
 * runs and the hub its events go through. The object class holds the result and delegates.
 */
import { ApprovalLedger } from "../engine/approvals/approval-ledger";
import { Approvals } from "../engine/approvals/approvals";
import { type RuntimeConfig, runtimeConfig } from "../engine/config/runtime-config";
import { StateHolder } from "../engine/loop/conversation-state";
import { ev } from "../engine/loop/event-builders";
import { StateStore } from "../engine/loop/state-store";
import { ReadLog } from "../engine/research/read-log";
import { ReviewStore } from "../engine/research/review-store";
import { EventLog } from "../engine/store/event-log";
import { MessageStore } from "../engine/store/message-store";
import { migrate } from "../engine/store/migrations";
import { RunStore } from "../engine/store/run-store";
import { SteerQueue } from "../engine/store/steer-queue";
import { ConversationMeta } from "./conversation-meta";
import { CONVERSATION_MIGRATIONS } from "./conversation-schema";
import { ConversationWiring } from "./conversation-wiring";
import { RunDriver } from "./run-driver";
import { RunEvents } from "./run-events";

/** Everything a conversation object delegates to. */
export interface ConversationParts {
  config: RuntimeConfig;
  meta: ConversationMeta;
  log: EventLog;
  messages: MessageStore;
  runs: RunStore;
  state: StateHolder;
  approvals: Approvals;
  approvalLedger: ApprovalLedger;
  steering: SteerQueue;
  /** The pages its runs read, for checking citations. */
  reads: ReadLog;
  /** Each run's research options and the review its result ended with. */
  reviews: ReviewStore;
  wiring: ConversationWiring;
  driver: RunDriver;
  events: RunEvents;
}

/** Builds a conversation's parts; `waitUntil` keeps background work alive after a request. */
export function conversationParts(
  storage: DurableObjectStorage,
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
): ConversationParts {
  const sql = storage.sql;
  migrate(storage, CONVERSATION_MIGRATIONS);
  const config = runtimeConfig(env);
  const meta = new ConversationMeta(sql);
  const log = new EventLog(sql);
  const messages = new MessageStore(sql);
  const runs = new RunStore(sql);
  const steering = new SteerQueue(sql);
  const approvalLedger = new ApprovalLedger(sql);
  const reads = new ReadLog(sql);
  const reviews = new ReviewStore(sql);
  // The parts refer to one another; each reference is followed only after all are built.
  const p = {} as ConversationParts;
  const emit = (runId: string | null, event: Parameters<EventLog["append"]>[1]) =>
    p.events.emit(runId, event);
  const stateStore = new StateStore(sql);
  // The state is one record read whole; each change saves it and appends its STATE_DELTA in
  // one synchronous transaction, so the row and the log never disagree.
  const state = new StateHolder(stateStore.load(log), (record, delta) =>
    storage.transactionSync(() => {
      stateStore.save(record);
      emit(runs.active()?.id ?? null, ev.stateDelta(delta));
    }),
  );
  const approvals = new Approvals({
    state,
    ledger: approvalLedger,
    messages,
    emit,
    levels: () => p.wiring.approvalLevels(),
    timeoutMs: config.approvalTimeoutMs,
    scrub: (value) => p.wiring.browser()?.redact(value) ?? Promise.resolve(value),
  });
  const stores = {
    config,
    meta,
    log,
    messages,
    runs,
    state,
    approvals,
    approvalLedger,
    steering,
    reads,
    reviews,
  };
  const signal = () => p.driver.signal;
  const wiring = new ConversationWiring({ ...stores, env, storage, sql, signal, emit, waitUntil });
  const info = () => meta.info();
  const driver = new RunDriver({ ...stores, storage, wiring, info, emit, waitUntil });
  const checkpoint = () => driver.renewLease();
  const events = new RunEvents({ env, log, runs, reviews, meta, wiring, checkpoint, waitUntil });
  return Object.assign(p, { ...stores, wiring, driver, events });
}
