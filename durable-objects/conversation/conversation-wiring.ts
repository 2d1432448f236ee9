/**
 * What a conversation's runs are built from: its tool set (built-ins, custom and HTTP tools,
 * web, files, the browser), the loop's dependencies and the browser itself — assembled from the
 * conversation's storage, the deployment's config and the workspace's settings.
 */
import type { StoredHttpTool } from "../../shared/http-tools";
import { ConversationBrowser } from "../engine/browser/conversation-browser";
import { withScreenshotImages } from "../engine/browser/screenshot-vision";
import { browserConfig } from "../engine/config/browser-config";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { webConfig } from "../engine/config/web-config";
import { createSummarizer } from "../engine/extract/summarize";
import { conversationFiles } from "../engine/files/files-factory";
import type { StateHolder } from "../engine/loop/conversation-state";
import type { ContextSummary, LoopDeps, SummaryStore } from "../engine/loop/loop-deps";
import { runSubAgent } from "../engine/loop/sub-agent";
import { createModelClient, type ModelEnv } from "../engine/model/model-factory";
import type { EventLog } from "../engine/store/event-log";
import type { MessageStore } from "../engine/store/message-store";
import type { RunStore } from "../engine/store/run-store";
import type { ToolRegistry } from "../engine/tools/tool";
import type { WebToolDeps } from "../engine/tools/web";
import type { WorkspaceObject } from "../workspace/workspace-object";
import type { ConversationInfo, ConversationMeta } from "./conversation-meta";
import { type ConversationPolicy, conversationPolicy, imageFiles, wakeBy } from "./conversation-policy";
import { buildConversationTools } from "./conversation-tools";

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
  /** The signal that stops the run being driven now. */
  signal(): AbortSignal;
  emit: LoopDeps["emit"];
}

/** Builds tools and loop deps for one conversation; holds its browser. */
export class ConversationWiring {
  private browserCache: ConversationBrowser | null = null;
  /** Whether the model is shown screenshots (workspace model_vision), as of the last tool set built. */
  private vision = false;

  constructor(private readonly p: WiringParts) {}

  private get vars(): Record<string, unknown> {
    return this.p.env as unknown as Record<string, unknown>;
  }

  /** The workspace's object. */
  workspace(workspaceId: string): DurableObjectStub<WorkspaceObject> {
    const ns = this.p.env.WORKSPACES;
    return ns.get(ns.idFromName(workspaceId)) as DurableObjectStub<WorkspaceObject>;
  }

  /** Every tool a run of this conversation may call, with the workspace's current policy applied. */
  async tools(): Promise<ToolRegistry> {
    const info = this.p.meta.info();
    const workspace = info ? this.workspace(info.workspace_id) : null;
    // One round trip's worth of waiting: the workspace answers both calls concurrently.
    const [agentPolicy, workspaceTools] = workspace
      ? await Promise.all([workspace.getAgentPolicy(), workspace.httpTools()])
      : [null, []];
    const policy = info && agentPolicy ? conversationPolicy(agentPolicy, info) : null;
    await this.browser()?.setWorkspaceDomains(policy?.domains.workspaceDomains ?? null);
    this.vision = policy?.vision ?? false;
    const registry = buildConversationTools({
      env: this.vars,
      conversationId: info?.id ?? "",
      tasks: this.p.state,
      config: this.p.config,
      outputSchema: info?.output_schema ?? null,
      unattended: this.p.meta.job() !== null,
      allowedTools: info?.allowed_tools ?? null,
      httpTools: [...(workspaceTools as StoredHttpTool[]), ...this.p.meta.httpTools()],
      web: info ? this.webDeps(info, policy) : undefined,
      browser: info ? this.browserDeps(info, policy) : undefined,
      files: info ? conversationFiles(this.p.env, info.workspace_id) : undefined,
      runSubAgent: (spec, ctx) =>
        runSubAgent({ ...this.loopDeps(registry), signal: ctx.signal }, ctx.runId!, spec),
    });
    return registry;
  }

  /** What the agent loop needs for one run step. */
  loopDeps(tools: ToolRegistry): LoopDeps {
    const info = this.p.meta.info()!;
    const model = createModelClient(this.p.env as unknown as ModelEnv, this.p.config);
    const files = conversationFiles(this.p.env, info.workspace_id);
    return {
      ledger: this.p.runs,
      outputSchema: info.output_schema,
      conversationId: info.id,
      workspaceId: info.workspace_id,
      runs: this.p.runs,
      messages: this.p.messages,
      log: this.p.log,
      state: this.p.state,
      model: this.vision ? withScreenshotImages(model, imageFiles(files.files).read) : model,
      tools,
      settings: {
        model: info.model,
        instructions: info.instructions,
        maxSteps: info.max_steps,
        limits: this.p.config.limits,
        contextTokens: info.context_window,
        maxTokens: this.p.meta.job()?.max_tokens ?? null,
      },
      signal: this.p.signal(),
      emit: this.p.emit,
      summary: this.summaryFor(""),
      summaryFor: (scope) => this.summaryFor(scope),
      spill: files.spill,
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

  /** The conversation's browser, created on first use (it launches nothing until a tab tool runs). */
  browser(): ConversationBrowser | null {
    const info = this.p.meta.info();
    if (!info) return null;
    this.browserCache ??= new ConversationBrowser({
      binding: this.p.env.BROWSER,
      sql: this.p.sql,
      options: browserConfig(this.vars, info.allowed_domains),
      secrets: this.secretReader(info.workspace_id),
      publishTabs: (tabs) =>
        this.p.state.setTabs(
          tabs.map(({ id, window_id, url, title, active }) => ({ id, window_id, url, title, active })),
        ),
      wakeBy: (at) => wakeBy(this.p.storage, at),
    });
    return this.browserCache;
  }

  /** The web tools' deps: the summariser uses the loop's model client; settings come from the workspace. */
  private webDeps(info: ConversationInfo, policy: ConversationPolicy | null): WebToolDeps {
    return {
      domains: policy?.domains,
      config: webConfig(this.vars),
      summarize: this.summarizer(info.model),
      searchSettings: () => this.workspace(info.workspace_id).getSearchSettings(),
    };
  }

  private browserDeps(info: ConversationInfo, policy: ConversationPolicy | null) {
    const browser = this.browser();
    return browser
      ? {
          browser,
          secrets: this.secretReader(info.workspace_id),
          summarize: this.summarizer(info.model),
          saveFile: imageFiles(conversationFiles(this.p.env, info.workspace_id).files).save,
          vision: policy?.vision ?? false,
        }
      : undefined;
  }

  private secretReader(workspaceId: string): { read(name: string): Promise<string | null> } {
    return { read: (name) => this.workspace(workspaceId).readSecret(name) };
  }

  /** One summariser for every tool's `prompt`; its tokens count towards the run that asked. */
  private summarizer(modelName: string) {
    const model = createModelClient(this.p.env as unknown as ModelEnv, this.p.config);
    return createSummarizer(model, modelName, (usage) => {
      const run = this.p.runs.active();
      if (run) this.p.runs.addUsage(run.id, usage);
    });
  }
}
