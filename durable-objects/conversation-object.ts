/**
 * One conversation = one Durable Object. This class is wiring: it owns storage, the alarm
 * that drives runs and the live event streams, and delegates the agent loop to plain modules.
 */
import { DurableObject } from "cloudflare:workers";
import type {
  AnswerBody,
  Conversation,
  ConversationDetails,
  CreateConversation,
  RunResult,
} from "../shared/api";
import type { TabList } from "../shared/browser-api";
import type { StoredHttpTool } from "../shared/http-tools";
import { checkAnswer } from "./answer-check";
import { browserConfig } from "./browser/browser-config";
import { ConversationBrowser } from "./browser/conversation-browser";
import { withScreenshotImages } from "./browser/screenshot-vision";
import {
  type ConversationPolicy,
  conversationPolicy,
  earliest,
  imageFiles,
  wakeBy,
} from "./conversation-policy";
import { buildConversationTools } from "./conversation-tools";
import { messageView, runView } from "./conversation-views";
import { conversationFiles } from "./files/files-factory";
import { type JobLink, notifyJobRunEnded } from "./jobs/job-link";
import { fail, ok, type RpcResult } from "./rpc-result";
import { advanceRun, finishRun } from "./runtime/agent-loop";
import { type RuntimeConfig, runtimeConfig } from "./runtime/config";
import { StateHolder } from "./runtime/conversation-state";
import { ev } from "./runtime/event-builders";
import { EventLog } from "./runtime/event-log";
import type { ContextSummary, LoopDeps } from "./runtime/loop-deps";
import { MessageStore } from "./runtime/message-store";
import { createModelClient, type ModelEnv } from "./runtime/model-factory";
import { type Run, RunStore } from "./runtime/run-store";
import { sseResponse } from "./runtime/sse";
import { runSubAgent } from "./runtime/sub-agent";
import type { ToolRegistry } from "./tools/tool";
import { runTool } from "./tools/tool-runner";
import type { WebToolDeps } from "./tools/web";
import { webConfig } from "./web/config";
import { createSummarizer } from "./web/summarize";
import type { WorkspaceObject } from "./workspace-object";
import { writtenFiles } from "./written-files";

/** Conversation settings stored at creation. */
interface ConversationInfo extends Conversation {
  workspace_id: string;
  allowed_domains?: string[];
}

/** A Durable Object hosting one conversation and its agent runs. */
export class ConversationObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly log: EventLog;
  private readonly messages: MessageStore;
  private readonly runs: RunStore;
  private readonly state: StateHolder;
  private readonly config: RuntimeConfig;
  private readonly waiters = new Map<string, Set<() => void>>();
  private driving = false;
  private abort = new AbortController();
  private browserCache: ConversationBrowser | null = null;
  /** Whether the model is shown screenshots (workspace model_vision), as of the last tool set built. */
  private vision = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.config = runtimeConfig(env as unknown as Record<string, unknown>);
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.log = new EventLog(this.sql);
    this.messages = new MessageStore(this.sql);
    this.runs = new RunStore(this.sql);
    this.state = new StateHolder((delta) => this.emit(this.runs.active()?.id ?? null, ev.stateDelta(delta)));
    const snapshot = this.log.lastOfType("STATE_SNAPSHOT");
    const deltas = this.log.readAfter(snapshot?.seq ?? 0).filter((e) => e.event.type === "STATE_DELTA");
    this.state.restore(snapshot, deltas);
  }

  // ---- creation and views -------------------------------------------------------------

  /** Creates the conversation (idempotent for the same id); a job run passes its link. */
  async create(
    id: string,
    workspaceId: string,
    body: CreateConversation,
    job?: JobLink,
  ): Promise<Conversation> {
    const existing = this.info();
    if (existing) return publicInfo(existing);
    if (job) this.setMeta("job", job);
    const agent = await this.workspace(workspaceId).getAgentSettings();
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
    };
    this.setMeta("info", info);
    return publicInfo(info);
  }

  /** Whether the agent wrote this normalised workspace path in this conversation (visitor downloads). */
  wroteFile(path: string): boolean {
    return this.info() !== null && writtenFiles(this.messages.list()).has(path);
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
      messages: this.messages.list().map(messageView),
      tasks: state.tasks,
      pending_question: state.pending_question,
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
    await this.resolveQuestion({ answer: checked.value });
    return ok({ question_id: q.question_id, answer: checked.value });
  }

  /** Stops the current run (and forgets nothing: its events and messages stay). */
  async cancel(): Promise<RpcResult<{ run_id: string | null; cancelled: boolean }>> {
    const run = this.runs.active();
    if (!run) return ok({ run_id: null, cancelled: false });
    this.runs.requestCancel(run.id);
    const stopDriving = () => this.abort.abort(new Error("cancelled"));
    if (this.driving && run.status !== "waiting_for_user") stopDriving();
    else {
      const deps = this.loopDeps(await this.tools());
      // The alarm may have started driving this run while the tools were built: then the loop
      // ends it (it checks the cancel flag); finishing it here too would end it twice.
      const still = this.runs.active();
      if (still?.id === run.id) {
        if (this.driving && still.status !== "waiting_for_user") stopDriving();
        else {
          finishRun(deps, run.id, { status: "cancelled" });
          await this.scheduleNext();
        }
      }
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
    const tools = await this.tools();
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
    if (outcome.kind !== "result") return fail(409, "run_only_tool", `${name} cannot be called directly.`);
    if (outcome.isError) {
      const status = outcome.code === "invalid_arguments" ? 400 : outcome.code === "not_found" ? 404 : 422;
      return fail(status, outcome.code ?? "tool_error", outcome.message ?? outcome.content);
    }
    return ok({ tool: name, result: outcome.value ?? null });
  }

  /** The browser's tabs and session facts, for the live view. */
  async tabs(): Promise<RpcResult<TabList>> {
    const browser = this.browser();
    if (!browser) return fail(404, "not_found", "No such conversation.");
    return ok({
      data: browser.store
        .tabs()
        .map(({ id, window_id, url, title, active }) => ({ id, window_id, url, title, active })),
      browser: { connected: browser.store.sessionId() !== null, launches: browser.store.launches() },
    });
  }

  /** A PNG of one tab, for the live view. */
  async tabScreenshot(tabId: number): Promise<RpcResult<Uint8Array>> {
    const png = await this.browser()?.screenshot(tabId);
    return png ? ok(png) : fail(404, "not_found", `No tab ${tabId} in this conversation.`);
  }

  /** Deletes the conversation and everything it stored. */
  async destroy(): Promise<void> {
    await this.browser()
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

  // ---- driving runs from the alarm ------------------------------------------------------------

  /** Drives runs; also the watchdog that resumes a run after a crash or an eviction. */
  async alarm(): Promise<void> {
    if (this.driving) {
      await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
      return;
    }
    this.driving = true;
    try {
      await this.browser()?.closeIfIdle();
      await this.drive();
    } finally {
      this.driving = false;
    }
    await this.scheduleNext();
  }

  private async drive(): Promise<void> {
    while (this.info()) {
      const active = this.runs.active();
      const q = this.state.pendingQuestion;
      if (active?.status === "waiting_for_user" && q) {
        if (Date.now() < q.expires_at) return;
        await this.resolveQuestion({ answer: null, reason: "timeout" }, false);
        continue;
      }
      const run = active ?? this.runs.nextQueued();
      if (!run) return;
      await this.ctx.storage.setAlarm(Date.now() + this.config.watchdogMs);
      this.abort = new AbortController();
      const tools = await this.tools();
      const result = await advanceRun(this.loopDeps(tools), run.id);
      if (result === "suspended") return;
    }
  }

  private async scheduleNext(): Promise<void> {
    const q = this.state.pendingQuestion;
    const idle = this.browser()?.idleDeadline() ?? null;
    if (q) await this.ctx.storage.setAlarm(earliest(q.expires_at, idle)!);
    else if (this.runs.active() || this.runs.nextQueued()) await this.ctx.storage.setAlarm(Date.now());
    else if (idle !== null) await this.ctx.storage.setAlarm(idle);
    else await this.ctx.storage.deleteAlarm();
  }

  private async resolveQuestion(result: Record<string, unknown>, wake = true): Promise<void> {
    const q = this.state.pendingQuestion;
    const run = this.runs.active();
    if (!q || !run) return;
    const content = JSON.stringify(result);
    this.messages.append(run.id, { role: "tool", tool_call_id: q.question_id, content });
    this.emit(run.id, ev.toolResult(q.question_id, content, false));
    this.emit(run.id, ev.custom("ask_user_resolved", { question_id: q.question_id, ...result }));
    this.state.setPendingQuestion(null);
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
      const job = this.getMeta<JobLink>("job");
      const workspaceId = this.info()?.workspace_id;
      if (job && workspaceId) this.ctx.waitUntil(notifyJobRunEnded(this.env, workspaceId, job));
    }
  }

  private async tools(): Promise<ToolRegistry> {
    const info = this.info();
    const workspace = info ? this.workspace(info.workspace_id) : null;
    const policy = info && workspace ? conversationPolicy(await workspace.getAgentPolicy(), info) : null;
    await this.browser()?.setWorkspaceDomains(policy?.domains.workspaceDomains ?? null);
    this.vision = policy?.vision ?? false;
    const registry = buildConversationTools({
      env: this.env as unknown as Record<string, unknown>,
      conversationId: info?.id ?? "",
      tasks: this.state,
      config: this.config,
      outputSchema: info?.output_schema ?? null,
      unattended: this.getMeta<JobLink>("job") !== null,
      allowedTools: info?.allowed_tools ?? null,
      httpTools: [...((await workspace?.httpTools()) ?? []), ...this.httpTools()] as StoredHttpTool[],
      web: this.webDeps(policy),
      browser: this.browserDeps(policy),
      files: info ? conversationFiles(this.env, info.workspace_id) : undefined,
      runSubAgent: (spec, ctx) =>
        runSubAgent({ ...this.loopDeps(registry), signal: ctx.signal }, ctx.runId!, spec),
    });
    return registry;
  }

  /** Registers (or replaces) an HTTP tool for this conversation only. */
  putHttpTool(tool: StoredHttpTool): void {
    const tools = this.getMeta<Record<string, StoredHttpTool>>("http_tools") ?? {};
    tools[tool.name] = tool;
    this.setMeta("http_tools", tools);
  }

  /** This conversation's own HTTP tools. */
  httpTools(): StoredHttpTool[] {
    return Object.values(this.getMeta<Record<string, StoredHttpTool>>("http_tools") ?? {});
  }

  /** Removes one of this conversation's HTTP tools. */
  deleteHttpTool(name: string): boolean {
    const tools = this.getMeta<Record<string, StoredHttpTool>>("http_tools") ?? {};
    if (!(name in tools)) return false;
    delete tools[name];
    this.setMeta("http_tools", tools);
    return true;
  }

  /** The web tools' deps: the summariser uses the loop's model client; settings come from the workspace. */
  private webDeps(policy: ConversationPolicy | null): WebToolDeps | undefined {
    const info = this.info();
    if (!info) return undefined;
    return {
      domains: policy?.domains,
      config: webConfig(this.env as unknown as Record<string, unknown>),
      summarize: this.summarizer(info.model),
      searchSettings: () =>
        this.env.WORKSPACES.get(this.env.WORKSPACES.idFromName(info.workspace_id)).getSearchSettings(),
    };
  }

  private browserDeps(policy: ConversationPolicy | null) {
    const browser = this.browser();
    const info = this.info();
    return browser && info
      ? {
          browser,
          secrets: this.secretReader(),
          summarize: this.summarizer(info.model),
          saveFile: imageFiles(conversationFiles(this.env, info.workspace_id).files).save,
          vision: policy?.vision ?? false,
        }
      : undefined;
  }

  /** The conversation's browser, created on first use (it launches nothing until a tab tool runs). */
  private browser(): ConversationBrowser | null {
    const info = this.info();
    if (!info) return null;
    this.browserCache ??= new ConversationBrowser({
      binding: this.env.BROWSER,
      sql: this.sql,
      options: browserConfig(this.env as unknown as Record<string, unknown>, info.allowed_domains),
      secrets: this.secretReader(),
      publishTabs: (tabs) =>
        this.state.setTabs(
          tabs.map(({ id, window_id, url, title, active }) => ({ id, window_id, url, title, active })),
        ),
      wakeBy: (at) => wakeBy(this.ctx.storage, at),
    });
    return this.browserCache;
  }

  private secretReader(): { read(name: string): Promise<string | null> } {
    const workspaceId = this.info()?.workspace_id ?? "";
    return {
      read: (name) => this.env.WORKSPACES.get(this.env.WORKSPACES.idFromName(workspaceId)).readSecret(name),
    };
  }

  /** One summariser for every tool's `prompt`; its tokens count towards the run that asked. */
  private summarizer(modelName: string) {
    const model = createModelClient(this.env as unknown as ModelEnv, this.config);
    return createSummarizer(model, modelName, (usage) => {
      const run = this.runs.active();
      if (run) this.runs.addUsage(run.id, usage);
    });
  }

  private loopDeps(tools: ToolRegistry): LoopDeps {
    const info = this.info()!;
    return {
      ledger: this.runs,
      outputSchema: info.output_schema,
      conversationId: info.id,
      workspaceId: info.workspace_id,
      runs: this.runs,
      messages: this.messages,
      log: this.log,
      state: this.state,
      model: this.vision
        ? withScreenshotImages(
            createModelClient(this.env as unknown as ModelEnv, this.config),
            imageFiles(conversationFiles(this.env, info.workspace_id).files).read,
          )
        : createModelClient(this.env as unknown as ModelEnv, this.config),
      tools,
      settings: {
        model: info.model,
        instructions: info.instructions,
        maxSteps: info.max_steps,
        limits: this.config.limits,
        contextTokens: info.context_window,
        maxTokens: this.getMeta<JobLink>("job")?.max_tokens ?? null,
      },
      signal: this.abort.signal,
      emit: (runId, event) => this.emit(runId, event),
      summary: {
        get: () => this.getMeta<ContextSummary>("summary"),
        set: (s) => this.setMeta("summary", s),
      },
      spill: conversationFiles(this.env, info.workspace_id).spill,
    };
  }

  private status(): ConversationDetails["status"] {
    const active = this.runs.active();
    if (active) return active.status === "waiting_for_user" ? "waiting_for_user" : "running";
    return this.runs.nextQueued() ? "running" : "idle";
  }

  private workspace(workspaceId: string): DurableObjectStub<WorkspaceObject> {
    return this.env.WORKSPACES.get(
      this.env.WORKSPACES.idFromName(workspaceId),
    ) as DurableObjectStub<WorkspaceObject>;
  }

  private info(): ConversationInfo | null {
    return this.getMeta<ConversationInfo>("info");
  }

  private getMeta<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  private setMeta(key: string, value: unknown): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));
  }
}

function publicInfo(info: ConversationInfo): Conversation {
  const { workspace_id: _ws, ...rest } = info;
  return { ...rest, allowed_tools: rest.allowed_tools ?? null };
}

function runResult(run: Run): RunResult {
  return { run_id: run.id, status: run.status, output: run.output, usage: run.usage, error: run.error };
}
