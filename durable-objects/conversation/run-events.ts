/**
 * Where a conversation's events go once appended to its log: the watchdog lease is renewed, run
 * webhooks are raised, and when a run ends its waiters are released, its usage is reported and
 * the job it runs for (if any) is told.
 */
import type { RunResult } from "../../schemas/api";
import type { ReviewStore } from "../engine/research/review-store";
import type { EventLog } from "../engine/store/event-log";
import type { Run, RunStore } from "../engine/store/run-store";
import { raiseWebhookEvent } from "../webhook/webhook-events";
import type { ConversationMeta } from "./conversation-meta";
import type { ConversationWiring } from "./conversation-wiring";
import { notifyJobRunEnded } from "./job-link";
import { runWebhookEvent } from "./run-webhooks";

/** The conversation's parts the event hub uses. */
export interface RunEventParts {
  env: Env;
  log: EventLog;
  runs: RunStore;
  reviews: ReviewStore;
  meta: ConversationMeta;
  wiring: ConversationWiring;
  /** Called on every event: a checkpoint of the run being driven. */
  checkpoint(): void;
  waitUntil(p: Promise<unknown>): void;
}

/** A run's result as `waitForRun` returns it, with the review its result ended with. */
export function runResult(run: Run, reviews: ReviewStore): RunResult {
  const { id, status, output, usage, error } = run;
  return { run_id: id, status, output, usage, error, ...reviews.review(id) };
}

const ENDED = ["succeeded", "failed", "cancelled"];

/** Appends events and wakes whoever waits for a run's end. */
export class RunEvents {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly p: RunEventParts) {}

  /** Appends one event to the log and tells whoever follows the run. */
  emit(runId: string | null, event: Parameters<EventLog["append"]>[1]): void {
    const { log, runs, meta, env, wiring } = this.p;
    const logged = log.append(runId, event);
    this.p.checkpoint();
    const info = meta.info();
    const hook = runId && info ? runWebhookEvent(logged.event, info.id, runs.get(runId)) : null;
    if (hook && info) this.p.waitUntil(raiseWebhookEvent(env, info.workspace_id, hook));
    if (runId && (logged.event.type === "RUN_FINISHED" || logged.event.type === "RUN_ERROR")) {
      this.release(runId);
      wiring.runEnded(runs.get(runId));
      const job = meta.job();
      const workspaceId = meta.info()?.workspace_id;
      if (job && workspaceId)
        this.p.waitUntil(wiring.releaseBrowser(runId).then(() => notifyJobRunEnded(env, workspaceId, job)));
    }
  }

  /** Waits until the run has ended; null when there is no such run. */
  async waitForRun(runId: string): Promise<RunResult | null> {
    for (;;) {
      const run = this.p.runs.get(runId);
      if (!run) return null;
      if (ENDED.includes(run.status)) return runResult(run, this.p.reviews);
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(runId) ?? new Set();
        set.add(resolve);
        this.waiters.set(runId, set);
      });
    }
  }

  /** Wakes every waiter (the conversation is being deleted: each then finds its run gone). */
  releaseAll(): void {
    for (const set of this.waiters.values()) for (const w of set) w();
  }

  private release(runId: string): void {
    const set = this.waiters.get(runId);
    this.waiters.delete(runId);
    for (const w of set ?? []) w();
  }
}
