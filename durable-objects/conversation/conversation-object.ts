/**
 * One conversation = one Durable Object. This class is wiring: it owns storage, the alarm
 * that drives runs (and wakes it at a question's or an approval's deadline) and the live event
 * streams, and delegates the agent loop, approvals and steering to plain modules.
 */
import { DurableObject } from "cloudflare:workers";
import {
  type AnswerBody,
  type Conversation,
  type ConversationDetails,
  type CreateConversation,
  DEFAULT_TITLE_CHARS,
  DETAILS_MESSAGE_LIMIT,
  type RunResult,
} from "../../shared/api";
import type { ApprovalDecisionBody, ApprovalResolved } from "../../shared/approvals";
import type { BrowserInput, ProfileSaved, TabList, TakeoverDone } from "../../shared/browser-api";
import type { StoredHttpTool } from "../../shared/http-tools";
import { ApprovalLedger } from "../engine/approvals/approval-ledger";
import { Approvals } from "../engine/approvals/approvals";
import { InputRefused } from "../engine/browser/remote-input";
import { type RuntimeConfig, runtimeConfig } from "../engine/config/runtime-config";
import { writtenFiles } from "../engine/files/written-files";
import { advanceRun } from "../engine/loop/agent-loop";
import { StateHolder } from "../engine/loop/conversation-state";
import { ev } from "../engine/loop/event-builders";
import { finishRun } from "../engine/loop/finishing";
import { StateStore } from "../engine/loop/state-store";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { EventLog } from "../engine/store/event-log";
import { MessageStore } from "../engine/store/message-store";
import { type Run, RunStore } from "../engine/store/run-store";
import { sseResponse } from "../engine/store/sse";
import { SteerQueue } from "../engine/store/steer-queue";
import { ToolRegistry } from "../engine/tools/tool";
import { raiseWebhookEvent } from "../webhooks/webhook-events";
import { checkAnswer } from "./answer-check";
import { decideApproval } from "./approval-decision";
import {
  type ConversationInfo,
  ConversationMeta,
  type CreateOptions,
  type LiveFields,
  newConversationInfo,
  publicInfo,
} from "./conversation-meta";
import { earliest } from "./conversation-policy";
import { messageView, runView } from "./conversation-views";
import { ConversationWiring } from "./conversation-wiring";
import { callToolDirectly } from "./direct-tool-call";
import { notifyJobRunEnded } from "./job-link";
import { type Intake, takeMessage } from "./message-intake";
import { clearPause, currentPause, type Pause, resolvedEvent, TIMEOUT_RESULT } from "./pauses";
import { runWebhookEvent } from "./run-webhooks";

/** A Durable Object hosting one conversation and its agent runs. */
export class ConversationObject extends DurableObject<Env> {
  private readonly meta: ConversationMeta;
  private readonly wiring: ConversationWiring;
  private readonly log: EventLog;
  private readonly messages: MessageStore;
  private readonly runs: RunStore;
  private readonly state: StateHolder;
  private readonly approvals: Approvals;
  private readonly approvalLedger: ApprovalLedger;
  private readonly steering: SteerQueue;
  private readonly config: RuntimeConfig;
  private readonly waiters = new Map<string, Set<() => void>>();
  private driving = false;
  /** When the running run's watchdog alarm was last pushed forward. */
  private leaseAt = 0;
  private abort = new AbortController();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.config = runtimeConfig(env);
    this.meta = new ConversationMeta(sql);
    this.log = new EventLog(sql);
    this.messages = new MessageStore(sql);
    this.runs = new RunStore(sql);
    const stateStore = new StateStore(sql);
    // The state is one record read whole; each change saves it and appends its STATE_DELTA in
    // one synchronous transaction, so the row and the log never disagree.
    this.state = new StateHolder(stateStore.load(this.log), (record, delta) =>
      ctx.storage.transactionSync(() => {
        stateStore.save(record);
        this.emit(this.runs.active()?.id ?? null, ev.stateDelta(delta));
      }),
    );
    this.steering = new SteerQueue(sql);
    this.approvalLedger = new ApprovalLedger(sql);
    this.approvals = new Approvals({
      state: this.state,
      ledger: this.approvalLedger,
      messages: this.messages,
      emit: (runId, event) => this.emit(runId, event),
      levels: () => this.wiring.approvalLevels(),
      timeoutMs: this.config.approvalTimeoutMs,
      scrub: (value) => this.wiring.browser()?.redact(value) ?? Promise.resolve(value),
    });
    this.wiring = new ConversationWiring({
      env,
      storage: ctx.storage,
      sql,
      config: this.config,
      meta: this.meta,
      runs: this.runs,
      messages: this.messages,
      log: this.log,
      state: this.state,
      approvals: this.approvals,
      steering: this.steering,
      signal: () => this.abort.signal,
      emit: (runId, event) => this.emit(runId, event),
      waitUntil: (p) => this.ctx.waitUntil(p),
    });
    // A fresh instance never has a live driver: a run left running by a crash resumes now.
    ctx.waitUntil(this.resumeOrphanedRun());
  }

  // ---- creation and views -------------------------------------------------------------

  /** Creates the conversation (idempotent for the same id); a job run passes its link. */
  async create(
    id: string,
    workspaceId: string,
    body: CreateConversation,
    opts: CreateOptions = {},
  ): Promise<Conversation> {
    const { job, origin } = opts;
    const existing = this.info();
    if (existing) return publicInfo(existing, this.live(existing));
    if (job) this.meta.set("job", job);
    const agent = await this.wiring.workspace(workspaceId).getAgentSettings();
    const channel = opts.channel ?? (job ? "job" : (body.channel ?? "api"));
    const info = newConversationInfo(id, workspaceId, body, agent, this.config, origin, channel);
    this.meta.set("info", info);
    return publicInfo(info, this.live(info));
  }

  /** Renames the conversation (the workspace's index is told, so lists and search follow). */
  async setTitle(title: string | null): Promise<Conversation | null> {
    const info = this.info();
    if (!info) return null;
    const next = { ...info, title };
    this.meta.set("info", next);
    await this.wiring.workspace(info.workspace_id).setConversationTitle(info.id, title);
    return publicInfo(next, this.live(next));
  }

  /** Whether the agent wrote this normalised workspace path in this conversation (visitor downloads). */
  wroteFile(path: string): boolean {
    return this.info() !== null && writtenFiles(this.messages.after()).has(path);
  }

  /** The conversation's settings, or null when it does not exist. */
  describe(): Conversation | null {
    const info = this.info();
    return info ? publicInfo(info, this.live(info)) : null;
  }

  /** Everything `GET /v1/conversations/{id}` shows. */
  details(): ConversationDetails | null {
    const info = this.info();
    if (!info) return null;
    const active = this.runs.active();
    const state = this.state.snapshot();
    return {
      ...publicInfo(info, this.live(info)),
      status: this.status(),
      messages: this.messages.newest(DETAILS_MESSAGE_LIMIT).map(messageView),
      messages_total: this.messages.count(),
      tasks: state.tasks,
      pending_question: state.pending_question,
      pending_approvals: this.approvals.pending(),
      pending_takeover: state.pending_takeover ?? null,
      usage: this.runs.totalUsage(),
      current_run: active ? runView(active) : null,
      queued_runs: this.runs.queuedCount(),
    };
  }

  // ---- runs ---------------------------------------------------------------------------------

  /**
   * Queues a user message; its run starts when the ones before it are done. With `steer` and a
   * run active, the message joins that run before its next model turn instead (`after_seq`: where
   * the run's stream goes on from).
   */
  async sendMessage(
    content: string,
    idempotencyKey: string | null,
    runId?: string,
    steer = false,
  ): Promise<RpcResult<Intake>> {
    const info = this.info();
    if (!info) return fail(404, "not_found", "No such conversation.");
    const intake = takeMessage(
      { runs: this.runs, steering: this.steering, log: this.log },
      { content, idempotencyKey, runId, steer },
    );
    if (intake.created && !info.title) await this.setTitle(defaultTitle(content));
    if (intake.created && !intake.steered && !this.driving) await this.ctx.storage.setAlarm(Date.now());
    return ok(intake);
  }

  /** Decides a pending approval: approve (optionally with edited arguments) or deny. */
  async decideApproval(approvalId: string, body: ApprovalDecisionBody): Promise<RpcResult<ApprovalResolved>> {
    if (!this.info()) return fail(404, "not_found", "No such conversation.");
    return decideApproval(
      {
        approvals: this.approvals,
        ledger: this.approvalLedger,
        runs: this.runs,
        tools: () => this.wiring.tools(),
        wake: async () => {
          if (!this.driving) await this.ctx.storage.setAlarm(Date.now());
        },
      },
      approvalId,
      body,
    );
  }

  /** Waits until a run has finished and returns its result. */
  async waitForRun(runId: string): Promise<RpcResult<RunResult>> {
    for (;;) {
      const run = this.runs.get(runId);
      if (!run) return fail(404, "not_found", "No such run.");
      if (["succeeded", "failed", "cancelled"].includes(run.status)) return ok(runResult(run));
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(runId) ?? new Set();
        set.add(resolve);
        this.waiters.set(runId, set);
      });
    }
  }

  /** A run's result without waiting: null when unknown (used by scheduled jobs). */
  runOutcome(runId: string): RunResult | null {
    const run = this.runs.get(runId);
    return run ? runResult(run) : null;
  }

  /** Answers the pending ask_user question. */
  async answer(body: AnswerBody): Promise<RpcResult<{ question_id: string; answer: string | string[] }>> {
    const q = this.state.pendingQuestion;
    if (!q) return fail(409, "no_pending_question", "There is no question waiting for an answer.");
    if (q.question_id !== body.question_id) {
      return fail(
        409,
        "question_mismatch",
        `The pending question is ${q.question_id}, not ${body.question_id}.`,
      );
    }
    const checked = checkAnswer(q, body.answer);
    if (!checked.ok) return checked;
    await this.resolvePause(currentPause(this.state)!, { answer: checked.value });
    return ok({ question_id: q.question_id, answer: checked.value });
  }

  /** The person is done with a take-over: saves the browser to its profile, then resumes the run. */
  async takeoverDone(takeoverId: string, note: string | null): Promise<RpcResult<TakeoverDone>> {
    const pending = () => {
      const t = this.state.pendingTakeover;
      if (!t) return fail(409, "no_pending_takeover", "There is no take-over waiting to be finished.");
      if (t.takeover_id !== takeoverId)
        return fail(
          409,
          "takeover_mismatch",
          `The pending take-over is ${t.takeover_id}, not ${takeoverId}.`,
        );
      return ok(t);
    };
    const before = pending();
    if (!before.ok) return before;
    const browser = this.wiring.browser()!;
    const tab = await browser.tabFacts(before.value.tab_id);
    await browser.saveProfile().catch(() => null); // a profile-less conversation has nothing to save
    const still = pending(); // the deadline may have passed while the browser was read
    if (!still.ok) return still;
    const result = { status: "done" as const, note, url: tab?.url ?? null, title: tab?.title ?? null };
    await this.resolvePause(currentPause(this.state)!, result);
    return ok({ takeover_id: takeoverId, ...result });
  }

  /**
   * Resolves the pending question without an answer (`{"answer": null, "reason": …}`), e.g. for
   * an MCP client that cannot ask its user; false when that question is not pending.
   */
  async answerWithout(questionId: string, reason: string): Promise<boolean> {
    if (this.state.pendingQuestion?.question_id !== questionId) return false;
    await this.resolvePause(currentPause(this.state)!, { answer: null, reason });
    return true;
  }

  /** Stops the current run (and forgets nothing: its events and messages stay). */
  async cancel(): Promise<RpcResult<{ run_id: string | null; cancelled: boolean }>> {
    const run = this.runs.active();
    if (!run) return ok({ run_id: null, cancelled: false });
    this.runs.requestCancel(run.id);
    if (this.driving && run.status === "running") this.abort.abort(new Error("cancelled"));
    else {
      // Ending a run needs no tools: finishing it synchronously leaves no gap in which the alarm
      // could start driving it too.
      finishRun(this.wiring.loopDeps(new ToolRegistry()), run.id, { status: "cancelled" });
      await this.scheduleNext();
    }
    return ok({ run_id: run.id, cancelled: true });
  }

  /** Calls one tool directly, with the same validation as a model call. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<RpcResult<{ tool: string; result: unknown }>> {
    const info = this.info();
    if (!info) return fail(404, "not_found", "No such conversation.");
    const result = await callToolDirectly(this.wiring, info, this.config, name, args);
    if (!this.driving) await this.wiring.closeMcp();
    return result;
  }

  /** The browser's tabs and session facts, for the live view. */
  async tabs(): Promise<RpcResult<TabList>> {
    const browser = this.wiring.browser();
    if (!browser) return fail(404, "not_found", "No such conversation.");
    return ok({
      data: browser.store
        .tabs()
        .map(({ id, window_id, url, title, active }) => ({ id, window_id, url, title, active })),
      browser: {
        connected: browser.store.sessionId() !== null,
        launches: browser.store.launches(),
        live_viewers: browser.liveViewers(),
      },
    });
  }

  /** A PNG of one tab, for the live view. */
  async tabScreenshot(tabId: number): Promise<RpcResult<Uint8Array>> {
    const png = await this.wiring.browser()?.screenshot(tabId);
    return png ? ok(png) : fail(404, "not_found", `No tab ${tabId} in this conversation.`);
  }

  /** Forwards a person's input (live view) to a tab as trusted input; what is typed is never logged. */
  async tabInput(tabId: number, input: BrowserInput): Promise<RpcResult<{ ok: true }>> {
    const browser = this.wiring.browser();
    try {
      if (await browser?.input(tabId, input)) return ok({ ok: true as const });
      return fail(404, "not_found", `No tab ${tabId} in this conversation.`);
    } catch (err) {
      if (err instanceof InputRefused) return fail(400, err.code, err.message);
      // The error may quote the input; only its kind is reported.
      return fail(422, "input_failed", `The ${input.type} could not be delivered to tab ${tabId}.`);
    }
  }

  /** Saves the browser's cookies and local storage into the conversation's browser profile. */
  async saveBrowser(): Promise<RpcResult<ProfileSaved>> {
    const browser = this.wiring.browser();
    if (!browser) return fail(404, "not_found", "No such conversation.");
    return browser.saveProfile();
  }

  /** Deletes the conversation and everything it stored. */
  async destroy(): Promise<void> {
    await this.wiring
      .browser()
      ?.shutdown()
      .catch(() => {});
    this.abort.abort(new Error("deleted"));
    for (const set of this.waiters.values()) for (const w of set) w();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.ctx.abort("conversation deleted");
  }

  /** SSE streams: `/events` (whole conversation) and `/runs/{id}/events` (one run). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const after = Number(url.searchParams.get("after") ?? "0");
    const live = url.pathname.match(/^\/tabs\/(\d+)\/live$/);
    if (live) return this.liveView(Number(live[1]));
    const runMatch = url.pathname.match(/^\/runs\/([^/]+)\/events$/);
    if (url.pathname === "/events" || runMatch) {
      return sseResponse(this.log, {
        after: Number.isFinite(after) && after > 0 ? Math.floor(after) : 0,
        runId: runMatch?.[1],
        heartbeatMs: this.config.heartbeatMs,
        endOnTerminal: Boolean(runMatch),
      });
    }
    return new Response("not found", { status: 404 });
  }

  private async liveView(tabId: number): Promise<Response> {
    const body = await this.wiring
      .browser()
      ?.live(tabId)
      .catch(() => "failed" as const);
    if (!body || body === "failed")
      return Response.json(
        body
          ? {
              error: {
                code: "live_view_failed",
                message: `The browser of tab ${tabId} could not be reached.`,
              },
            }
          : { error: { code: "not_found", message: `No tab ${tabId} in this conversation.` } },
        { status: body ? 422 : 404 },
      );
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  }

  // ---- driving runs from the alarm ------------------------------------------------------------

  /**
   * Called when the object starts: a run that is running (or queued) with no live driver was cut
   * off by a crash, an eviction or a deploy; the alarm is moved to now instead of waiting for
   * the watchdog. (Without any request, the watchdog alarm itself, kept short, wakes the object.)
   */
  private async resumeOrphanedRun(): Promise<void> {
    const active = this.runs.active();
    if (!(active?.status === "running" || (!active && this.runs.nextQueued()))) return;
    const alarm = await this.ctx.storage.getAlarm();
    if (this.driving || (alarm !== null && alarm <= Date.now())) return;
    await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * Keeps the watchdog lease of the run being driven a full RUN_WATCHDOG_MS ahead, at most once
   * per half lease: checkpoints refresh it, so the watchdog fires only when the driver is gone.
   */
  private renewLease(): void {
    const now = Date.now();
    if (!this.driving || now - this.leaseAt < this.config.watchdogMs / 2) return;
    this.leaseAt = now;
    this.ctx.waitUntil(this.ctx.storage.setAlarm(now + this.config.watchdogMs));
  }

  /** Drives runs; also the watchdog that resumes a run after a crash or an eviction. */
  async alarm(): Promise<void> {
    if (this.driving) {
      await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
      return;
    }
    this.driving = true;
    try {
      if (!this.state.pendingTakeover) await this.wiring.browser()?.closeIfIdle();
      await this.drive();
    } finally {
      this.driving = false;
      await this.wiring.closeMcp();
    }
    await this.scheduleNext();
  }

  private async drive(): Promise<void> {
    while (this.info()) {
      const active = this.runs.active();
      if (active?.status === "waiting_for_user" || active?.status === "waiting_for_approval") {
        await this.expireDue(active.id);
        if (this.runs.get(active.id)?.status !== "running") return;
        continue;
      }
      const run = active ?? this.runs.nextQueued();
      if (!run) return;
      await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
      this.leaseAt = Date.now();
      this.abort = new AbortController();
      const tools = await this.wiring.tools();
      if (run.status === "queued") this.runs.openCost(run.id, this.wiring.price(this.info()!.model) !== null);
      const result = await advanceRun(this.wiring.loopDeps(tools), run.id);
      if (result === "suspended") return;
    }
  }

  /** Times out a question or approvals whose deadline passed; the run goes on when nothing is left. */
  private async expireDue(runId: string): Promise<void> {
    const pause = currentPause(this.state);
    if (pause && Date.now() >= pause.expires_at)
      await this.resolvePause(pause, TIMEOUT_RESULT[pause.kind], false);
    this.approvals.expire();
    const run = this.runs.get(runId);
    const waiting =
      run?.status === "waiting_for_user"
        ? currentPause(this.state) !== null
        : this.approvals.pending(runId).length > 0;
    if (run && run.status !== "running" && !waiting) this.runs.setStatus(runId, "running");
  }

  private async scheduleNext(): Promise<void> {
    const pause = currentPause(this.state);
    // A browser handed to a person is not closed for idleness while the take-over lasts.
    const idle = this.state.pendingTakeover ? null : (this.wiring.browser()?.idleDeadline() ?? null);
    const active = this.runs.active();
    const waitingUntil = earliest(pause?.expires_at, this.approvals.nextDeadline());
    if (active?.status !== "running" && waitingUntil !== null)
      await this.ctx.storage.setAlarm(earliest(waitingUntil, idle)!);
    else if (active || this.runs.nextQueued()) await this.ctx.storage.setAlarm(Date.now());
    else if (idle !== null) await this.ctx.storage.setAlarm(idle);
    else await this.ctx.storage.deleteAlarm();
  }

  /** Ends a question or take-over with the tool's result and lets the run go on. */
  private async resolvePause(pause: Pause, result: Record<string, unknown>, wake = true): Promise<void> {
    const run = this.runs.active();
    if (!run) return;
    const content = JSON.stringify(result);
    this.messages.append(run.id, { role: "tool", tool_call_id: pause.id, content });
    this.emit(run.id, ev.toolResult(pause.id, content, false));
    this.emit(run.id, resolvedEvent(pause, result));
    clearPause(this.state, pause);
    this.runs.setStatus(run.id, "running");
    if (wake && !this.driving) await this.ctx.storage.setAlarm(Date.now());
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private emit(runId: string | null, event: Parameters<EventLog["append"]>[1]): void {
    const logged = this.log.append(runId, event);
    this.renewLease();
    const info = this.info();
    const hook = runId && info ? runWebhookEvent(logged.event, info.id, this.runs.get(runId)) : null;
    if (hook && info) this.ctx.waitUntil(raiseWebhookEvent(this.env, info.workspace_id, hook));
    if (runId && (logged.event.type === "RUN_FINISHED" || logged.event.type === "RUN_ERROR")) {
      const set = this.waiters.get(runId);
      this.waiters.delete(runId);
      for (const w of set ?? []) w();
      this.wiring.runEnded(this.runs.get(runId));
      const job = this.meta.job();
      const workspaceId = this.info()?.workspace_id;
      if (job && workspaceId) this.ctx.waitUntil(notifyJobRunEnded(this.env, workspaceId, job));
    }
  }

  /** Registers (or replaces) an HTTP tool for this conversation only. */
  putHttpTool(tool: StoredHttpTool): void {
    this.meta.putHttpTool(tool);
  }

  /** This conversation's own HTTP tools. */
  httpTools(): StoredHttpTool[] {
    return this.meta.httpTools();
  }

  /** Removes one of this conversation's HTTP tools. */
  deleteHttpTool(name: string): boolean {
    return this.meta.deleteHttpTool(name);
  }

  private status(): ConversationDetails["status"] {
    const active = this.runs.active();
    if (active?.status === "waiting_for_user" || active?.status === "waiting_for_approval")
      return active.status;
    if (active) return "running";
    return this.runs.nextQueued() ? "running" : "idle";
  }

  private live(info: ConversationInfo): LiveFields {
    return { status: this.status(), last_activity_at: this.log.lastAt() ?? info.created_at };
  }

  private info(): ConversationInfo | null {
    return this.meta.info();
  }
}

/** A first message's start as a title: its first line, at most DEFAULT_TITLE_CHARS characters. */
export function defaultTitle(content: string): string | null {
  const line = content.trim().split(/\r?\n/, 1)[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (!line) return null;
  return line.length <= DEFAULT_TITLE_CHARS ? line : `${line.slice(0, DEFAULT_TITLE_CHARS - 1).trimEnd()}…`;
}

function runResult(run: Run): RunResult {
  return { run_id: run.id, status: run.status, output: run.output, usage: run.usage, error: run.error };
}
