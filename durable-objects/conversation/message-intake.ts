/**
 * Where a user message goes: a run of its own in the queue, or — sent with `steer: true` while
 * a run is active — into that run before its next model turn. One idempotency key is one message
 * either way.
 */
import type { EventLog } from "../engine/store/event-log";
import type { RunStore } from "../engine/store/run-store";
import type { SteerQueue } from "../engine/store/steer-queue";

/** What became of a message. */
export interface Intake {
  run_id: string;
  /** False when the idempotency key was seen before. */
  created: boolean;
  /** Whether it joined a run already under way. */
  steered: boolean;
  /** The event sequence that run's stream goes on from (0: from its start). */
  after_seq: number;
}

/** Queues or steers a message. */
export function takeMessage(
  stores: { runs: RunStore; steering: SteerQueue; log: EventLog },
  msg: { content: string; idempotencyKey: string | null; runId?: string; steer: boolean },
): Intake {
  const { runs, steering } = stores;
  const key = msg.idempotencyKey;
  // A key already used for a steering message answers with its run (a requeued one has a run of its own).
  const earlier = key ? steering.byKey(key) : null;
  if (earlier && earlier.status !== "requeued")
    return { run_id: earlier.run_id, created: false, steered: true, after_seq: 0 };
  const active = runs.active();
  if (msg.steer && active && !(key && runs.byIdempotencyKey(key))) {
    const after = stores.log.lastSeq();
    steering.push(active.id, msg.content, key);
    return { run_id: active.id, created: true, steered: true, after_seq: after };
  }
  const { run, created } = runs.enqueue(msg.content, key, msg.runId);
  return { run_id: run.id, created, steered: false, after_seq: 0 };
}
