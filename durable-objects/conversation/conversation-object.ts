/**
 * One conversation = one Durable Object. This class is wiring: it owns storage, the alarm
 * that drives runs and the live event streams, and delegates the agent loop to plain modules.
 */
import { DurableObject } from "cloudflare:workers";
import {
  type AnswerBody,
  type Conversation,
  type ConversationDetails,
  type CreateConversation,
  DETAILS_MESSAGE_LIMIT,
  type RunResult,
} from "../../shared/api";
import type { BrowserInput, ProfileSaved, TabList, TakeoverDone } from "../../shared/browser-api";
import type { StoredHttpTool } from "../../shared/http-tools";
import { InputRefused } from "../engine/browser/remote-input";
import { type RuntimeConfig, runtimeConfig } from "../engine/config/runtime-config";
import { writtenFiles } from "../engine/files/written-files";
import { advanceRun, finishRun } from "../engine/loop/agent-loop";
import { StateHolder } from "../engine/loop/conversation-state";
import { ev } from "../engine/loop/event-builders";
import { StateStore } from "../engine/loop/state-store";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { EventLog } from "../engine/store/event-log";
import { MessageStore } from "../engine/store/message-store";
import { type Run, RunStore } from "../engine/store/run-store";
import { sseResponse } from "../engine/store/sse";
import { ToolRegistry } from "../engine/tools/tool";
import { runTool } from "../engine/tools/tool-runner";
import { checkAnswer } from "./answer-check";
import { type ConversationInfo, ConversationMeta, type CreateOptions, publicInfo } from "./conversation-meta";
import { earliest } from "./conversation-policy";
import { messageView, runView } from "./conversation-views";
import { ConversationWiring } from "./conversation-wiring";
import { notifyJobRunEnded } from "./job-link";
import { clearPause, currentPause, type Pause, resolvedEvent, TIMEOUT_RESULT } from "./pauses";

/** A Durable Object hosting one conversation and its agent runs. */
export class ConversationObject extends DurableObject<Env> {
  private readonly meta: ConversationMeta;
  private readonly wiring: ConversationWiring;
  private readonly log: EventLog;
  private readonly messages: MessageStore;
  private readonly runs: RunStore;
  private readonly state: StateHolder;
  private readonly config: RuntimeConfig;
  private readonly waiters = new Map<string, Set<() => void>>();
  private driving = false;
  private abort = new AbortController();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.config = runtimeConfig(env as unknown as Record<string, unknown>);
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
      signal: () => this.abort.signal,
      emit: (runId, event) => this.emit(runId, event),
      waitUntil: (p) => this.ctx.waitUntil(p),
    });
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
    if (existing) return publicInfo(existing);
    if (job) this.meta.set("job", job);
    const agent = await this.wiring.workspace(workspaceId).getAgentSettings();
    const info: ConversationInfo = {
      id,
      object: "conversation",
      workspace_id: workspaceId,
      created_at: Date.now(),
      instructions: body.instructions ?? agent.instructions ?? null,
      model: body.model ?? agent.model ?? this.config.defaultModel,
      metadata: body.metadata ?? {},
      max_steps: body.max_steps ?? this.config.maxSteps,
      context_window: body.context_window ?? this.config.contextTokens,
      output_schema: body.output_schema ?? null,
      ...(body.allowed_domains ? { allowed_domains: body.allowed_domains } : {}),
      allowed_tools: body.allowed_tools ?? agent.allowed_tools ?? null,
      browser_profile: body.browser_profile ?? null,
      max_cost_usd: body.max_cost_usd ?? null,
      ...(origin ? { origin } : {}),
      ...(body.mcp_servers ? { mcp_servers: body.mcp_servers } : {}),
    };
    this.meta.set("info", info);
    return publicInfo(info);
  }

  /** Whether the agent wrote this normalised workspace path in this conversation (visitor downloads). */
  wroteFile(path: string): boolean {
    return this.info() !== null && writtenFiles(this.messages.after()).has(path);
  }

  /** The conversation's settings, or null when it does not exist. */
  describe(): Conversation | null {
    const info = this.info();
    return info ? publicInfo(info) : null;
  }

  /** Everything `GET /v1/conversations/{id}` shows. */
  details(): ConversationDetails | null {
    const info = this.info();
    if (!info) return null;
    const active = this.runs.active();
    const state = this.state.snapshot();
    return {
      ...publicInfo(info),
      status: this.status(),
      messages: this.messages.newest(DETAILS_MESSAGE_LIMIT).map(messageView),
      messages_total: this.messages.count(),
      tasks: state.tasks,
      pending_question: state.pending_question,
      pending_takeover: state.pending_takeover ?? null,
      usage: this.runs.totalUsage(),
      current_run: active ? runView(active) : null,
      queued_runs: this.runs.queuedCount(),
    };
  }

  // ---- runs ---------------------------------------------------------------------------------

  /** Queues a user message; its run starts when the ones before it are done. */
  async sendMessage(
    content: string,
    idempotencyKey: string | null,
    runId?: string,
  ): Promise<RpcResult<{ run_id: string; created: boolean }>> {
    if (!this.info()) return fail(404, "not_found", "No such conversation.");
    const { run, created } = this.runs.enqueue(content, idempotencyKey, runId);
    if (created && !this.driving) await this.ctx.storage.setAlarm(Date.now());
    return ok({ run_id: run.id, created });
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

  /** Stops the current run (and forgets nothing: its events and messages stay). */
  async cancel(): Promise<RpcResult<{ run_id: string | null; cancelled: boolean }>> {
    const run = this.runs.active();
    if (!run) return ok({ run_id: null, cancelled: false });
    this.runs.requestCancel(run.id);
    if (this.driving && run.status !== "waiting_for_user") this.abort.abort(new Error("cancelled"));
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
    const tools = await this.wiring.tools();
    const tool = tools.get(name);
    if (!tool)
      return fail(
        404,
        "unknown_tool",
        `There is no tool named "${name}". Available: ${tools.names().join(", ")}.`,
      );
    if (tool.runOnly)
      return fail(
        409,
        "run_only_tool",
        `${name} needs a running conversation turn and cannot be called directly.`,
      );
    const outcome = await runTool(
      tools,
      name,
      args,
      {
        conversationId: info.id,
        workspaceId: info.workspace_id,
        runId: null,
        toolCallId: `direct_${crypto.randomUUID()}`,
      },
      this.config.limits,
    );
    if (!this.driving) await this.wiring.closeMcp();
    if (outcome.kind !== "result") return fail(409, "run_only_tool", `${name} cannot be called directly.`);
    if (outcome.isError) {
      const status = outcome.code === "invalid_arguments" ? 400 : outcome.code === "not_found" ? 404 : 422;
      return fail(status, outcome.code ?? "tool_error", outcome.message ?? outcome.content);
    }
    return ok({ tool: name, result: outcome.value ?? null });
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
      const pause = currentPause(this.state);
      if (active?.status === "waiting_for_user" && pause) {
        if (Date.now() < pause.expires_at) return;
        await this.resolvePause(pause, TIMEOUT_RESULT[pause.kind], false);
        continue;
      }
      const run = active ?? this.runs.nextQueued();
      if (!run) return;
      await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
      this.abort = new AbortController();
      const tools = await this.wiring.tools();
      if (run.status === "queued") this.runs.openCost(run.id, this.wiring.price(this.info()!.model) !== null);
      const result = await advanceRun(this.wiring.loopDeps(tools), run.id);
      if (result === "suspended") return;
    }
  }

  private async scheduleNext(): Promise<void> {
    const pause = currentPause(this.state);
    // A browser handed to a person is not closed for idleness while the take-over lasts.
    const idle = this.state.pendingTakeover ? null : (this.wiring.browser()?.idleDeadline() ?? null);
    if (pause) await this.ctx.storage.setAlarm(earliest(pause.expires_at, idle)!);
    else if (this.runs.active() || this.runs.nextQueued()) await this.ctx.storage.setAlarm(Date.now());
    else if (idle !== null) await this.ctx.storage.setAlarm(idle);
    else await this.ctx.storage.deleteAlarm();
  }

  /** Ends a pause with the tool's result and lets the run go on. */
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
    if (runId && (logged.event.type === "RUN_FINISHED" || logged.event.type === "RUN_ERROR")) {
      const set = this.waiters.get(runId);
      this.waiters.delete(runId);
      for (const w of set ?? []) w();
      this.wiring.runEnded();
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
    if (active) return active.status === "waiting_for_user" ? "waiting_for_user" : "running";
    return this.runs.nextQueued() ? "running" : "idle";
  }

  private info(): ConversationInfo | null {
    return this.meta.info();
  }
}

function runResult(run: Run): RunResult {
  return { run_id: run.id, status: run.status, output: run.output, usage: run.usage, error: run.error };
}
