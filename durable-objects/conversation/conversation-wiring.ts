/**
 * What a conversation's runs are built from: its tool set (built-ins, custom and HTTP tools,
 * web, files, the browser), the loop's dependencies and the browser itself — assembled from the
 * conversation's storage, the deployment's config and the workspace's settings.
 */

import { offerLimits } from "../engine/tools/tool-offer";
import type { ApprovalPolicy } from "../../schemas/approvals";
import { browserFleetStub } from "../addresses/browser-fleet";
import { workspaceStub } from "../addresses/workspace";
import type { ApprovalLevels } from "../engine/approvals/policy";
import { withScreenshotImages } from "../engine/browser/screenshot-vision";
import { readEnv } from "../engine/config/env";
import { webConfig } from "../engine/config/web-config";
import { createSummarizer } from "../engine/model/summarize";
import { conversationFiles } from "../engine/files/files-factory";
import { visitorFolder } from "../engine/files/scoped-files";
import { ev } from "../engine/loop/event-builders";
import type { ContextSummary, LoopDeps, SummaryStore } from "../engine/loop/loop-deps";
import { runSubAgent } from "../engine/loop/sub-agent";
import type { RunModels } from "../engine/model/fallback";
import { createModelClient } from "../engine/model/model-factory";
import { recordReads } from "../engine/research/read-recorder";
import type { Redaction } from "../engine/secrets/secret-redactor";
import { ClearedResults } from "../engine/store/cleared-results";
import type { Run } from "../engine/store/run-store";
import type { ToolRegistry } from "../engine/tools/tool";
import type { WebToolDeps } from "../engine/tools/web";
import type { WorkspaceObject } from "../workspace/workspace-object";
import type { BrowserLink } from "./browser-link";
import { downloadSaver } from "./browser-files";
import type { CaughtDownload } from "../engine/browser/downloads";
import { BrowserMeter } from "./browser-usage";
import { ConversationMcp } from "./conversation-mcp";
import { type ConversationInfo, visitorOf } from "./conversation-meta";
import { type ConversationPolicy, conversationPolicy, imageFiles } from "./conversation-policy";
import { ConversationSpending } from "./conversation-spending";
import { buildConversationTools } from "./conversation-tools";
import { conversationBrowserLink } from "./browser-link-wiring";
import { reviewer } from "./result-review";
import { conversationRunModels, currentRunModel } from "./run-models";
import { loopSettings, readToolSettings } from "./run-settings";
import { RunTracing } from "./run-tracing";
import type { WiringParts } from "./wiring-parts";

export type { WiringParts } from "./wiring-parts";

/** Builds tools and loop deps for one conversation; holds its browser. */
export class ConversationWiring {
  private browserCache: BrowserLink | null = null;
  /** The workspace's allowed_domains, as of the last tool set built (sent to the fleet with each call). */
  private workspaceDomains: string[] | null = null;
  /** Whether the model is shown screenshots (workspace model_vision), as of the last tool set built. */
  private vision = false;
  /** The workspace's approval rules, as of the last tool set built. */
  private workspaceApprovals: ApprovalPolicy = {};
  private readonly spending: ConversationSpending;
  private readonly tracing: RunTracing;
  private readonly mcp: ConversationMcp;
  private readonly browserMeter: BrowserMeter;
  /** The fallback model each run moved on to (a new run starts at its primary). */
  private readonly runModels: RunModels;
  /** The model a run uses now: the conversation's primary, or the fallback it moved on to. */
  private readonly runModel: (runId: string) => string;

  constructor(private readonly p: WiringParts) {
    this.runModels = conversationRunModels(p);
    this.runModel = currentRunModel(p, this.runModels);
    this.spending = new ConversationSpending(p, () => this.workspace(this.p.meta.info()!.workspace_id));
    this.tracing = new RunTracing(p.env, p.waitUntil);
    this.browserMeter = new BrowserMeter(p.runs, readEnv(p.env).BROWSER_HOUR_PRICE_USD, (seconds, cost) =>
      this.spending.usage.browserTime(this.spending.subject(), seconds, cost),
    );
    this.mcp = new ConversationMcp({ env: p.env, sql: p.sql, config: p.config, vision: () => this.vision });
  }

  /** The workspace's object. */
  workspace(workspaceId: string): DurableObjectStub<WorkspaceObject> {
    return workspaceStub(this.p.env, workspaceId) as DurableObjectStub<WorkspaceObject>;
  }

  /** The workspace's time zone, read with its policy when a run's tools are built. */
  private timeZone: string | null = null;

  /** Every tool a run of this conversation may call, with the workspace's current policy applied. */
  async tools(): Promise<ToolRegistry> {
    const info = this.p.meta.info();
    const workspace = info ? this.workspace(info.workspace_id) : null;
    const { agentPolicy, workspaceTools, cost, gate, mcpServers } = await readToolSettings(
      workspace,
      info,
      this.mcp,
    );
    this.spending.cost = cost;
    const policy = info && agentPolicy ? conversationPolicy(agentPolicy, info) : null;
    this.workspaceDomains = policy?.domains.workspaceDomains ?? null;
    this.vision = policy?.vision ?? false;
    this.workspaceApprovals = agentPolicy?.approvals ?? {};
    this.timeZone = agentPolicy?.timezone ?? null;
    const registry = buildConversationTools({
      env: this.p.env,
      conversationId: info?.id ?? "",
      tasks: this.p.state,
      config: this.p.config,
      outputSchema: info?.output_schema ?? null,
      unattended: this.p.meta.job() !== null,
      allowedTools: info?.allowed_tools ?? null,
      httpTools: [...workspaceTools, ...this.p.meta.httpTools()],
      web: info ? this.webDeps(info, policy) : undefined,
      browser: info ? (this.browser() ?? undefined) : undefined,
      files: info ? this.files(info) : undefined,
      gate,
      runSubAgent: (spec, ctx) =>
        runSubAgent({ ...this.loopDeps(registry), signal: ctx.signal }, ctx.runId!, spec),
    });
    recordReads(registry, this.p.reads);
    if (info) await this.mcp.attach(registry, info, mcpServers);
    registry.limitOffer(
      offerLimits(this.p.config.maxTools, info?.context_window ?? this.p.config.contextTokens),
    );
    registry.redaction = this.redaction();
    return registry;
  }

  /** The files as this conversation reaches them: its own saved results only; a visitor's own folder. */
  private files(info: ConversationInfo) {
    const visitor = visitorOf(info);
    const files = conversationFiles(this.p.env, info.workspace_id, info.origin, {
      conversationId: info.id,
      root: visitor ? visitorFolder(visitor) : null,
    });
    return { ...files, confined: Boolean(visitor) };
  }

  /** The approval rules a call of this conversation is judged by (besides the tool's own default). */
  approvalLevels(): Omit<ApprovalLevels, "tool"> {
    return {
      workspace: this.workspaceApprovals,
      conversation: this.p.meta.info()?.approvals ?? null,
      unattended: this.p.meta.job() !== null,
    };
  }

  /** Closes the MCP connections' streams at the end of a run (their sessions stay stored). */
  closeMcp(): Promise<void> {
    return this.mcp.close();
  }

  /** What the agent loop needs for one run step. */
  loopDeps(tools: ToolRegistry): LoopDeps {
    const info = this.p.meta.info()!;
    const model = createModelClient(this.p.env, this.p.config);
    const files = this.files(info);
    const settings = loopSettings(this.p, info, this.mcp.instructions(info.instructions), this.timeZone);
    return {
      ledger: this.spending.runLedger(this.runModel),
      runModels: this.runModels,
      budget: this.spending.budget(info, this.runModel),
      tracer: this.tracing.tracer(info),
      outputSchema: info.output_schema,
      conversationId: info.id,
      workspaceId: info.workspace_id,
      runs: this.p.runs,
      messages: this.p.messages,
      log: this.p.log,
      state: this.p.state,
      model: this.vision ? withScreenshotImages(model, imageFiles(files.files).read) : model,
      tools,
      settings,
      signal: this.p.signal(),
      emit: (runId, event) => {
        this.p.emit(runId, event);
        if (runId) this.mcp.flushNotices(runId, this.p.emit);
      },
      summary: this.summaryFor(""),
      cleared: new ClearedResults(this.p.sql),
      summaryFor: (scope) => this.summaryFor(scope),
      spill: files.spill,
      redaction: this.redaction(),
      approvals: this.p.approvals,
      steering: this.p.steering,
      onRunEnd: (runId) => this.p.approvals.dropRun(runId, "cancelled"),
      review: reviewer({
        ...this.p,
        info,
        model,
        runModel: this.runModel,
        ledger: (m) => this.spending.ledger(m),
        signal: this.p.signal(),
      }),
    };
  }

  /** The context summary of a message scope: "" is the conversation's, `sub:<id>` a sub-agent's. */
  private summaryFor(scope: string): SummaryStore {
    const key = scope ? `summary:${scope}` : "summary";
    return {
      get: () => this.p.meta.get<ContextSummary>(key),
      set: (s) => this.p.meta.set(key, s),
    };
  }

  /** Saves a page's download under downloads/ and emits `file_downloaded` (on the run's events, else the active run's). */
  private saveDownload(info: ConversationInfo, runId: string | null, file: CaughtDownload): Promise<string> {
    return downloadSaver(this.files(info).files, (saved) =>
      this.p.emit(runId ?? this.p.runs.active()?.id ?? null, ev.custom("file_downloaded", saved)),
    )(file);
  }

  /** A download no tool call caused (a person's click in the live view), sent by the fleet; its path. */
  saveBrowserDownload(file: CaughtDownload): Promise<string> {
    const info = this.p.meta.info();
    if (!info) return Promise.reject(new Error("The conversation no longer exists."));
    return this.saveDownload(info, null, file);
  }

  /** Browser time the fleet measured after the conversation's last call (its context's idle close). */
  browserTimeUsed(ms: number): void {
    if (this.p.meta.info()) this.browserMeter.add(null, ms);
  }

  /**
   * An unattended run ended: the browser time its context used up to now (the idle tail after its
   * last call included) goes into the run's usage before the job reads it; the fleet closes the
   * context (state saved) after answering, so the job's settling waits for one round trip only.
   */
  async releaseBrowser(runId: string): Promise<void> {
    const info = this.p.meta.info();
    const browsed = (this.p.runs.get(runId)?.usage.browser_seconds ?? 0) > 0;
    if (!info || (!browsed && !this.p.state.snapshot().tabs?.length)) return;
    const ms = await browserFleetStub(this.p.env, info.workspace_id)
      .release(info.id)
      .catch(() => 0);
    this.browserMeter.add(runId, ms);
  }

  /** Tells the workspace's usage ledger that a run ended. */
  runEnded(run: Run | null): void {
    const info = this.p.meta.info();
    if (!info) return;
    const fallback = run ? this.runModels.of(run.id) : null;
    this.spending.usage.runEnded(this.spending.subject(fallback ?? undefined));
    if (run) this.tracing.runEnded(info, run, fallback);
    if (run) this.runModels.forget(run.id);
  }

  /** A model's price under the workspace's table (null: unknown, costs stay null). */
  price(model: string) {
    return this.spending.price(model);
  }

  /** The conversation's browser in its workspace's fleet (nothing is launched until a tab tool runs). */
  browser(): BrowserLink | null {
    const info = this.p.meta.info();
    if (!info) return null;
    this.browserCache ??= conversationBrowserLink(this.p, info, {
      workspaceDomains: () => this.workspaceDomains,
      vision: () => this.vision,
      meter: this.browserMeter,
      summarize: this.summarizer(),
      files: () => this.files(info).files,
      workspace: () => this.workspace(info.workspace_id),
      saveDownload: (runId, file) => this.saveDownload(info, runId, file),
    });
    return this.browserCache;
  }

  /** The web tools' deps: the summariser uses the loop's model client; settings come from the workspace. */
  private webDeps(info: ConversationInfo, policy: ConversationPolicy | null): WebToolDeps {
    return {
      domains: policy?.domains,
      config: webConfig(this.p.env),
      summarize: this.summarizer(),
      searchSettings: () => this.workspace(info.workspace_id).getSearchSettings(),
    };
  }

  /** The redaction of the secrets typed in this conversation (none before its browser exists). */
  redaction(): Redaction | undefined {
    return this.browser()?.redaction;
  }

  /** One summariser for every tool's `prompt`, on the model the asking run uses now, its tokens that run's. */
  private summarizer() {
    const model = createModelClient(this.p.env, this.p.config);
    const ledger = this.spending.runLedger(this.runModel);
    const run = () => this.p.runs.active();
    const current = () => run()?.id;
    return createSummarizer(
      model,
      () => (current() ? this.runModel(current()!) : this.p.meta.info()!.model),
      (usage) => void (current() && ledger.addUsage(current()!, usage)),
    );
  }
}
