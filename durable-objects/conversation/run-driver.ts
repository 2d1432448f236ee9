/**
 * Drives a conversation's runs from its alarm: picks the active or next queued run, keeps the
 * watchdog lease ahead while it drives, times out questions and approvals at their deadlines,
 * sets the next alarm, and resumes a run a crash left running as soon as the object wakes.
 */
import type { Approvals } from "../engine/approvals/approvals";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { advanceRun } from "../engine/loop/agent-loop";
import { fallbackChain } from "../engine/model/fallback";
import type { StateHolder } from "../engine/loop/conversation-state";
import { ev } from "../engine/loop/event-builders";
import { finishRun } from "../engine/loop/finishing";
import type { LoopDeps } from "../engine/loop/loop-deps";
import type { MessageStore } from "../engine/store/message-store";
import type { RunStore } from "../engine/store/run-store";
import { ToolRegistry } from "../engine/tools/tool";
import type { ConversationInfo } from "./conversation-meta";
import { earliest } from "./conversation-policy";
import type { ConversationWiring } from "./conversation-wiring";
import { clearPause, currentPause, type Pause, resolvedEvent, TIMEOUT_RESULT } from "./pauses";
import { fallbackModelsOf } from "./run-models";

/** The conversation's parts the driver reads and writes. */
export interface DriverParts {
  storage: DurableObjectStorage;
  config: RuntimeConfig;
  runs: RunStore;
  messages: MessageStore;
  state: StateHolder;
  approvals: Approvals;
  wiring: ConversationWiring;
  info(): ConversationInfo | null;
  emit: LoopDeps["emit"];
  waitUntil(p: Promise<unknown>): void;
}

/** The one driver of a conversation's runs; at most one drive is in progress at a time. */
export class RunDriver {
  private driving = false;
  /** When the running run's watchdog alarm was last pushed forward. */
  private leaseAt = 0;
  private abort = new AbortController();

  constructor(private readonly p: DriverParts) {}

  /** Whether a run is being driven in this instance now. */
  get isDriving(): boolean {
    return this.driving;
  }

  /** The signal that stops the run being driven now. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Stops the run being driven (the conversation is being deleted). */
  stop(reason: string): void {
    this.abort.abort(new Error(reason));
  }

  /** Lets the alarm pick up new work now; a live drive picks it up by itself. */
  async wake(): Promise<void> {
    if (!this.driving) await this.p.storage.setAlarm(Date.now());
  }

  /**
   * Called when the object starts: a run that is running (or queued) with no live driver was cut
   * off by a crash, an eviction or a deploy; the alarm is moved to now instead of waiting for
   * the watchdog. (Without any request, the watchdog alarm itself, kept short, wakes the object.)
   */
  async resumeOrphanedRun(): Promise<void> {
    const { runs, storage } = this.p;
    const active = runs.active();
    if (!(active?.status === "running" || (!active && runs.nextQueued()))) return;
    const alarm = await storage.getAlarm();
    if (this.driving || (alarm !== null && alarm <= Date.now())) return;
    await storage.setAlarm(Date.now());
  }

  /**
   * Keeps the watchdog lease of the run being driven a full RUN_WATCHDOG_MS ahead, at most once
   * per half lease: checkpoints refresh it, so the watchdog fires only when the driver is gone.
   */
  renewLease(): void {
    const now = Date.now();
    if (!this.driving || now - this.leaseAt < this.p.config.watchdogMs / 2) return;
    this.leaseAt = now;
    this.p.waitUntil(this.p.storage.setAlarm(now + this.p.config.watchdogMs));
  }

  /** The alarm: drives runs; also the watchdog that resumes a run after a crash or an eviction. */
  async alarm(): Promise<void> {
    if (this.driving) {
      await this.p.storage.setAlarm(Date.now() + this.p.config.watchdogMs);
      return;
    }
    this.driving = true;
    try {
      await this.drive();
    } finally {
      this.driving = false;
      await this.p.wiring.closeMcp();
    }
    await this.scheduleNext();
  }

  private async drive(): Promise<void> {
    const { runs, wiring, storage, config } = this.p;
    while (this.p.info()) {
      const active = runs.active();
      if (active?.status === "waiting_for_user" || active?.status === "waiting_for_approval") {
        await this.expireDue(active.id);
        if (runs.get(active.id)?.status !== "running") return;
        continue;
      }
      const run = active ?? runs.nextQueued();
      if (!run) return;
      await storage.setAlarm(Date.now() + config.watchdogMs);
      this.leaseAt = Date.now();
      this.abort = new AbortController();
      const tools = await wiring.tools();
      if (run.status === "queued") runs.openCost(run.id, this.anyModelPriced());
      const result = await advanceRun(wiring.loopDeps(tools), run.id);
      if (result === "suspended") return;
    }
  }

  /** Times out a question or approvals whose deadline passed; the run goes on when nothing is left. */
  private async expireDue(runId: string): Promise<void> {
    const { state, approvals, runs } = this.p;
    const pause = currentPause(state);
    if (pause && Date.now() >= pause.expires_at)
      await this.resolvePause(pause, TIMEOUT_RESULT[pause.kind], false);
    approvals.expire();
    const run = runs.get(runId);
    const waiting =
      run?.status === "waiting_for_user" ? currentPause(state) !== null : approvals.pending(runId).length > 0;
    if (run && run.status !== "running" && !waiting) runs.setStatus(runId, "running");
  }

  /** Sets the alarm for what comes next: a run to drive, a deadline, or nothing (the fleet closes idle browsers). */
  async scheduleNext(): Promise<void> {
    const { state, runs, approvals, storage } = this.p;
    const pause = currentPause(state);
    const active = runs.active();
    const waitingUntil = earliest(pause?.expires_at, approvals.nextDeadline());
    if (active?.status !== "running" && waitingUntil !== null) await storage.setAlarm(waitingUntil);
    else if (active || runs.nextQueued()) await storage.setAlarm(Date.now());
    else await storage.deleteAlarm();
  }

  /** Ends a question or take-over with the tool's result and lets the run go on. */
  async resolvePause(pause: Pause, result: Record<string, unknown>, wake = true): Promise<void> {
    const { runs, messages, state } = this.p;
    const run = runs.active();
    if (!run) return;
    const content = JSON.stringify(result);
    messages.append(run.id, { role: "tool", tool_call_id: pause.id, content });
    this.p.emit(run.id, ev.toolResult(pause.id, content, false));
    this.p.emit(run.id, resolvedEvent(pause, result));
    clearPause(state, pause);
    runs.setStatus(run.id, "running");
    if (wake) await this.wake();
  }

  /** Stops the current run (its events and messages stay). */
  async cancel(): Promise<{ run_id: string | null; cancelled: boolean }> {
    const run = this.p.runs.active();
    if (!run) return { run_id: null, cancelled: false };
    this.p.runs.requestCancel(run.id);
    if (this.driving && run.status === "running") this.abort.abort(new Error("cancelled"));
    else {
      // Ending a run needs no tools: finishing it synchronously leaves no gap in which the alarm
      // could start driving it too.
      finishRun(this.p.wiring.loopDeps(new ToolRegistry()), run.id, { status: "cancelled" });
      await this.scheduleNext();
    }
    return { run_id: run.id, cancelled: true };
  }

  /** Whether a model the run may use has a price: its cost then opens at $0 (an unpriced call makes it unknown). */
  private anyModelPriced(): boolean {
    const info = this.p.info()!;
    const chain = fallbackChain(info.model, fallbackModelsOf(info, this.p.config));
    return chain.some((model) => this.p.wiring.price(model) !== null);
  }
}
