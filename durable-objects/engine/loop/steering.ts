/**
 * Steering a running agent: messages a person sent with `steer: true` join the run right before
 * its next model turn, stored in order and emitted as the user's TEXT_MESSAGE in that run; what
 * the run did not take before it ended is queued as runs of its own, so nothing is lost.
 */
import { ev } from "./event-builders";
import type { LoopDeps } from "./loop-deps";

/** Moves a run's waiting steering messages into it; how many there were. */
export function applySteering(deps: LoopDeps, runId: string): number {
  const waiting = deps.steering?.take(runId) ?? [];
  for (const m of waiting) {
    deps.messages.append(runId, { role: "user", content: m.content });
    deps.emit(runId, ev.textStart(m.id, "user"));
    deps.emit(runId, ev.textContent(m.id, m.content));
    deps.emit(runId, ev.textEnd(m.id));
  }
  return waiting.length;
}

/** Queues the steering messages a run ended without as new runs, in order. */
export function requeueSteering(deps: LoopDeps, runId: string): void {
  for (const m of deps.steering?.take(runId, "requeued") ?? [])
    deps.runs.enqueue(m.content, m.idempotency_key);
}
