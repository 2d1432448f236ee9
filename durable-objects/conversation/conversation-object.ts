/**
 * One conversation = one Durable Object. This class is wiring: it owns the conversation's storage
 * and lifecycle and delegates each concern to a module of this folder: the alarm that drives runs
 * (run-driver.ts), where events go (run-events.ts), answers and take-overs (pause-answers.ts),
 * approvals (approval-decision.ts), the browser in the workspace's fleet (browser-link.ts), its HTTP
 * (conversation-http.ts), views (conversation-views.ts) and tools (conversation-wiring.ts), all
 * assembled by conversation-parts.ts.
 */
import { DurableObject } from "cloudflare:workers";
import type { CaughtDownload } from "../engine/browser/downloads";
import type {
  AnswerBody,
  Conversation,
  ConversationDetails,
  CreateConversation,
  RunResult,
} from "../../schemas/api";
import type { ApprovalDecisionBody, ApprovalResolved } from "../../schemas/approvals";
import type { BrowserInput, ProfileSaved, TabList, TakeoverDone } from "../../schemas/browser-api";
import type { StoredHttpTool } from "../../schemas/http-tools";
import type { MessageList, MessagePageQuery } from "../../schemas/message-pages";
import type { MessageReviewOptions } from "../../schemas/research";
import { writtenFiles } from "../engine/files/written-files";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { decideApproval } from "./approval-decision";
import { conversationFetch } from "./conversation-http";
import {
  type ConversationInfo,
  type CreateOptions,
  defaultTitle,
  newConversationInfo,
  publicInfo,
} from "./conversation-meta";
import { type ConversationParts, conversationParts } from "./conversation-parts";
import { conversationDetails, liveFields, messagePage, type ViewParts } from "./conversation-views";
import { callToolDirectly } from "./direct-tool-call";
import { type Intake, takeMessage } from "./message-intake";
import { answerQuestion, answerWithout, finishTakeover, type PauseParts } from "./pause-answers";
import { runResult } from "./run-events";

const noConversation = () => fail(404, "not_found", "No such conversation.");

/** A Durable Object hosting one conversation and its agent runs. */
export class ConversationObject extends DurableObject<Env> {
  private readonly p: ConversationParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.p = conversationParts(ctx.storage, env, (p) => ctx.waitUntil(p));
    // A fresh instance never has a live driver: a run left running by a crash resumes now.
    ctx.waitUntil(this.p.driver.resumeOrphanedRun());
  }

  /** Creates the conversation (idempotent for the same id); a job run passes its link. */
  async create(
    id: string,
    workspaceId: string,
    body: CreateConversation,
    opts: CreateOptions = {},
  ): Promise<Conversation> {
    const { job, origin } = opts;
    const existing = this.info();
    if (existing) return publicInfo(existing, liveFields(this.views(), existing));
    if (job) this.p.meta.set("job", job);
    const agent = await this.p.wiring.workspace(workspaceId).getAgentSettings();
    const channel = opts.channel ?? (job ? "job" : (body.channel ?? "api"));
    const info = newConversationInfo(id, workspaceId, body, agent, this.p.config, origin, channel);
    if (opts.visitorId) info.visitor_id = opts.visitorId;
    this.p.meta.set("info", info);
    return publicInfo(info, liveFields(this.views(), info));
  }

  /** Renames the conversation (the workspace's index is told, so lists and search follow). */
  async setTitle(title: string | null): Promise<Conversation | null> {
    const info = this.info();
    if (!info) return null;
    const next = { ...info, title };
    this.p.meta.set("info", next);
    await this.p.wiring.workspace(info.workspace_id).setConversationTitle(info.id, title);
    return publicInfo(next, liveFields(this.views(), next));
  }

  /** Whether the agent wrote this normalised workspace path in this conversation (visitor downloads). */
  wroteFile(path: string): boolean {
    return this.info() !== null && writtenFiles(this.p.messages.after()).has(path);
  }

  /** The conversation's settings, or null when it does not exist. */
  describe(): Conversation | null {
    const info = this.info();
    return info ? publicInfo(info, liveFields(this.views(), info)) : null;
  }

  /** Everything `GET /v1/conversations/{id}` shows. */
  details(): ConversationDetails | null {
    const info = this.info();
    return info ? conversationDetails(this.views(), info) : null;
  }

  /** One page of the conversation's messages, or null when it does not exist. */
  messages(query: MessagePageQuery): MessageList | null {
    return this.info() ? messagePage(this.p.messages, query) : null;
  }

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
    review: MessageReviewOptions = {},
  ): Promise<RpcResult<Intake>> {
    const info = this.info();
    if (!info) return fail(404, "not_found", "No such conversation.");
    const intake = takeMessage(
      { runs: this.p.runs, steering: this.p.steering, log: this.p.log },
      { content, idempotencyKey, runId, steer },
    );
    // A steered message joins a run whose options are set; a new run keeps its message's.
    if (!intake.steered) this.p.reviews.setOptions(intake.run_id, review);
    if (intake.created && !info.title) await this.setTitle(defaultTitle(content));
    if (intake.created && !intake.steered) await this.p.driver.wake();
    return ok(intake);
  }

  /** Decides a pending approval: approve (optionally with edited arguments) or deny. */
  async decideApproval(approvalId: string, body: ApprovalDecisionBody): Promise<RpcResult<ApprovalResolved>> {
    if (!this.info()) return fail(404, "not_found", "No such conversation.");
    const { approvals, approvalLedger: ledger, runs } = this.p;
    const deps = {
      approvals,
      ledger,
      runs,
      tools: () => this.p.wiring.tools(),
      wake: () => this.p.driver.wake(),
    };
    return decideApproval(deps, approvalId, body);
  }

  /** Waits until a run has finished and returns its result. */
  async waitForRun(runId: string): Promise<RpcResult<RunResult>> {
    const result = await this.p.events.waitForRun(runId);
    return result ? ok(result) : fail(404, "not_found", "No such run.");
  }

  /** A run's result without waiting: null when unknown (used by scheduled jobs). */
  runOutcome(runId: string): RunResult | null {
    const run = this.p.runs.get(runId);
    return run ? runResult(run, this.p.reviews) : null;
  }

  /** Answers the pending ask_user question. */
  answer(body: AnswerBody): Promise<RpcResult<{ question_id: string; answer: string | string[] }>> {
    return answerQuestion(this.pauses(), body);
  }

  /** The person is done with a take-over: saves the browser to its profile, then resumes the run. */
  takeoverDone(takeoverId: string, note: string | null): Promise<RpcResult<TakeoverDone>> {
    return finishTakeover(this.pauses(), takeoverId, note);
  }

  /**
   * Resolves the pending question without an answer (`{"answer": null, "reason": …}`), e.g. for
   * an MCP client that cannot ask its user; false when that question is not pending.
   */
  answerWithout(questionId: string, reason: string): Promise<boolean> {
    return answerWithout(this.pauses(), questionId, reason);
  }

  /** Stops the current run (and forgets nothing: its events and messages stay). */
  async cancel(): Promise<RpcResult<{ run_id: string | null; cancelled: boolean }>> {
    return ok(await this.p.driver.cancel());
  }

  /** Calls one tool directly, with the same validation as a model call. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<RpcResult<{ tool: string; result: unknown }>> {
    const info = this.info();
    if (!info) return fail(404, "not_found", "No such conversation.");
    const result = await callToolDirectly(this.p.wiring, info, this.p.config, name, args);
    if (!this.p.driver.isDriving) await this.p.wiring.closeMcp();
    return result;
  }

  /** The tab handed to a person by a pending request_takeover, or null: the only one a visitor may drive. */
  handedTab(): number | null {
    return this.p.state.pendingTakeover?.tab_id ?? null;
  }

  /** The browser's tabs and session facts, for the live view. */
  async tabs(): Promise<RpcResult<TabList>> {
    return (await this.p.wiring.browser()?.tabs()) ?? noConversation();
  }

  /** A PNG of one tab, for the live view. */
  tabScreenshot(tabId: number): Promise<RpcResult<Uint8Array>> {
    return this.p.wiring.browser()?.tabScreenshot(tabId) ?? Promise.resolve(noConversation());
  }

  /** Forwards a person's input (live view) to a tab as trusted input; what is typed is never logged. */
  tabInput(tabId: number, input: BrowserInput): Promise<RpcResult<{ ok: true }>> {
    return this.p.wiring.browser()?.tabInput(tabId, input) ?? Promise.resolve(noConversation());
  }

  /** Saves the browser's cookies and local storage into the conversation's browser profile. */
  saveBrowser(): Promise<RpcResult<ProfileSaved>> {
    return this.p.wiring.browser()?.saveBrowser() ?? Promise.resolve(noConversation());
  }

  /** Registers (or replaces) an HTTP tool for this conversation only; 409 `too_many_tools` past the cap. */
  putHttpTool(tool: StoredHttpTool): RpcResult<null> {
    return this.p.meta.putHttpTool(tool);
  }

  /** This conversation's own HTTP tools. */
  httpTools(): StoredHttpTool[] {
    return this.p.meta.httpTools();
  }

  /** Browser time the workspace's fleet measured after the last call (reported by its alarm), in ms. */
  browserTimeUsed(ms: number): void {
    this.p.wiring.browserTimeUsed(ms);
  }

  /** Saves a download its browser made while no tool call ran (a person's click in the live view); its path. */
  saveBrowserDownload(file: CaughtDownload): Promise<string> {
    return this.p.wiring.saveBrowserDownload(file);
  }

  /** Removes one of this conversation's HTTP tools. */
  deleteHttpTool(name: string): boolean {
    return this.p.meta.deleteHttpTool(name);
  }

  /** Deletes the conversation and everything it stored. */
  async destroy(): Promise<void> {
    await this.p.wiring
      .browser()
      ?.shutdown()
      .catch(() => {});
    this.p.driver.stop("deleted");
    this.p.events.releaseAll();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.ctx.abort("conversation deleted");
  }

  /** SSE streams: `/events` (whole conversation), `/runs/{id}/events` (one run), `/tabs/{id}/live`. */
  fetch(request: Request): Promise<Response> {
    return conversationFetch(
      { log: this.p.log, config: this.p.config, browser: () => this.p.wiring.browser() },
      request,
    );
  }

  /** Drives runs; also the watchdog that resumes a run after a crash or an eviction. */
  alarm(): Promise<void> {
    return this.p.driver.alarm();
  }

  private views(): ViewParts {
    return this.p;
  }

  private pauses(): PauseParts {
    return {
      state: this.p.state,
      browser: () => this.p.wiring.browser(),
      resolve: (pause, result) => this.p.driver.resolvePause(pause, result),
    };
  }

  private info(): ConversationInfo | null {
    return this.p.meta.info();
  }
}
