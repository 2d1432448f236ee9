/**
 * The browser of one conversation as the workspace's fleet holds it: its context, tabs and the
 * secrets typed in it, wired to the tools' {@link BrowserOps} interface.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { BrowserInput, ProfileSaved } from "../../../schemas/browser-api";
import type { RpcResult } from "../rpc-result";
import type { Redaction } from "../secrets/secret-redactor";
import type { BrowserOps } from "../tools/browser-shared";
import { BrowserSession } from "./browser-session";
import { CallQueue } from "./call-queue";
import type { ConversationBrowserDeps } from "./conversation-browser-deps";
import { DocumentMarks } from "./document-marks";
import { DownloadCatcher, type DownloadedFile, type DownloadSink, type RefusedDownload } from "./downloads";
import { LiveControls } from "./live-controls";
import { LiveViews } from "./live-view";
import { saveIntoProfile } from "./profile-save";
import { type OpenTabOptions, type TabFilter, TabManager, type TabView } from "./tab-manager";
import { type TabRecord, TabStore } from "./tab-store";
import { TypedSecrets } from "./typed-secrets";

export type { BrowserProfileLink, ConversationBrowserDeps } from "./conversation-browser-deps";

/** A conversation's browser: tab tools' operations plus lifecycle for the Durable Object. */
export class ConversationBrowser implements BrowserOps {
  readonly store: TabStore;
  private readonly session: BrowserSession;
  private readonly tabs: TabManager;
  private readonly typed: TypedSecrets;
  /** The redaction of every secret typed in this browser, for tool results and run output. */
  readonly redaction: Redaction;
  private readonly calls: CallQueue;
  private readonly marks: DocumentMarks;
  private readonly liveViews: LiveViews;
  private readonly controls: LiveControls;
  readonly scriptTimeoutMs: number;
  readonly uploadMaxBytes: number;
  private readonly downloads: DownloadCatcher;

  constructor(private readonly deps: ConversationBrowserDeps) {
    this.store = new TabStore(deps.sql, deps.conversationId);
    this.scriptTimeoutMs = deps.options.scriptTimeoutMs;
    this.uploadMaxBytes = deps.files.uploadMaxBytes;
    this.downloads = new DownloadCatcher(deps.files.downloads, deps.outsideDownloads ?? null);
    const options = { ...deps.options, downloads: this.downloads.handle };
    this.session = new BrowserSession(deps.source, this.store, options, deps.profile);
    this.session.recording = deps.recording ?? null;
    this.calls = new CallQueue(() => this.session.recording?.flushAll());
    this.typed = new TypedSecrets(this.store, deps.secrets);
    this.redaction = this.typed.redaction;
    this.marks = new DocumentMarks(this.store, (page) => this.session.cdp(page));
    if (deps.recording) deps.recording.redact = (json) => this.redact(json);
    this.liveViews = new LiveViews(deps.live);
    this.tabs = new TabManager(this.session, deps.options.policy, (tabs) => deps.publishTabs(tabs));
    this.controls = new LiveControls({
      store: this.store,
      session: this.session,
      tabs: this.tabs,
      views: this.liveViews,
      calls: this.calls,
    });
  }

  list(filter: TabFilter): Promise<TabView[]> {
    return this.tabs.list(filter);
  }

  open(opts: OpenTabOptions): Promise<TabView> {
    return this.tabs.open(opts);
  }

  close(id: number): Promise<TabView> {
    return this.tabs.close(id);
  }

  activate(id: number): Promise<TabView> {
    return this.tabs.activate(id);
  }

  resolve(tabId?: number): Promise<{ tab: TabRecord; page: Page }> {
    return this.tabs.resolve(tabId);
  }

  view(tab: TabRecord, page: Page): Promise<TabView> {
    return this.tabs.view(tab, page);
  }

  cdp(page: Page): Promise<CDPSession> {
    return this.session.cdp(page);
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.calls.run(work);
  }

  /** Resolves once every call so far, and the work each left for after its answer, is done. */
  drained(): Promise<void> {
    return this.calls.drained();
  }

  /** A tool call of a run (null: direct) starts: the downloads it causes go to `sink` (none: refused). */
  beginCall(runId: string | null, sink: DownloadSink | null): void {
    this.downloads.beginCall(runId, sink);
  }

  endCall(): void {
    this.downloads.endCall();
  }

  takeDownloads(): Promise<(DownloadedFile | RefusedDownload)[]> {
    return this.downloads.settled();
  }

  lost(err: unknown): Promise<boolean> {
    return this.session.forgetIfGone(err);
  }

  takeRefusal(tabId: number): string | null {
    return this.session.takeRefusal(tabId);
  }

  seenDocument(page: Page): number | null {
    return this.session.seenDocument(page);
  }

  /**
   * After a tool call (inside `exclusive`): marks the use, publishes the tabs, asks for the idle
   * wake-up and returns the rebuild note; the cookies and storage are saved after the call's
   * answer, before the next call begins (a crash in between loses only that save). The document
   * each tab shows is read by that save, at the end of the call as before.
   */
  async settle(): Promise<string | null> {
    this.store.touch();
    this.calls.leaveForAfterAnswer(() => this.session.saveState());
    this.tabs.changed();
    const deadline = this.idleDeadline();
    if (deadline !== null) await this.deps.wakeBy?.(deadline);
    return this.session.takeNote();
  }

  /** `settle` outside a call's turn (a take-over's end, which must not wait behind a slow page): the state is saved at once. */
  async settleNow(): Promise<string | null> {
    const note = await this.settle();
    await this.calls.runAfterAnswer();
    return note;
  }

  /** When the open context becomes idle past the limit (later while a person holds it), or null when none is open. */
  idleDeadline(): number | null {
    const last = this.store.lastUsed();
    if (!this.store.sessionId() || last === null) return null;
    const idle = last + this.deps.options.idleMs;
    if (this.liveViews.viewers() > 0) return Math.max(idle, Date.now() + this.deps.options.idleMs);
    return Math.max(idle, this.store.pinnedUntil() ?? 0);
  }

  /** After a restart of the fleet: puts the kept context back under the guard (unless idle past the limit: the alarm closes it). */
  rearm(): Promise<void> {
    return this.exclusive(async () => {
      const deadline = this.idleDeadline();
      if (deadline !== null && Date.now() >= deadline && !this.pinned()) return;
      await this.session.connected();
    });
  }

  /** Closes the browser when it has been idle past the limit (called from the alarm); true if it did. */
  closeIfIdle(): Promise<boolean> {
    return this.exclusive(async () => {
      const deadline = this.idleDeadline();
      if (deadline === null || Date.now() < deadline || this.pinned()) return false;
      await this.closeSaving();
      return true;
    });
  }

  /** Closes the open context now (its run ended unattended), unless a person holds it; true if it did. */
  closeNow(): Promise<boolean> {
    return this.exclusive(async () => {
      if (!this.store.sessionId() || this.pinned()) return false;
      await this.closeSaving();
      return true;
    });
  }

  /** A tab's live frames as an SSE body, or null when the tab does not exist. */
  live(tabId: number): Promise<ReadableStream<Uint8Array> | null> {
    return this.controls.live(tabId);
  }

  /** A tab's current URL and title (read from its page, else as last stored), or null when it is gone. */
  tabFacts(tabId: number): Promise<{ url: string; title: string } | null> {
    return this.controls.tabFacts(tabId);
  }

  /** How many live views are open on the tabs. */
  liveViewers(): number {
    return this.liveViews.viewers();
  }

  /** Forwards a person's input to a tab; false when the tab does not exist. Throws InputRefused. */
  input(tabId: number, input: BrowserInput): Promise<boolean> {
    return this.controls.input(tabId, input);
  }

  /** Writes the browser's current cookies and local storage into the conversation's profile. */
  saveProfile(): Promise<RpcResult<ProfileSaved>> {
    if (!this.deps.profile) return this.saveProfileNow(); // the refusal needs no browser
    return this.exclusive(() => this.saveProfileNow());
  }

  private saveProfileNow(): Promise<RpcResult<ProfileSaved>> {
    return saveIntoProfile(this.deps.profile, this.session, this.store);
  }

  /** Closes the browser, saving its state into the profile first (best effort). */
  private async closeSaving(): Promise<void> {
    this.liveViews.stopAll();
    if (this.deps.profile && this.store.sessionId()) await this.saveProfileNow().catch(() => null);
    await this.session.close();
  }

  /** Sets the workspace's allowed_domains (read from its settings before each run or tool call; the guard reads them per request). */
  async setWorkspaceDomains(domains: string[] | null): Promise<void> {
    this.deps.options.policy.workspaceDomains = domains;
  }

  rememberSecret(name: string, value: string): void {
    this.typed.remember(name, value);
  }

  /** The values typed since the last call (the conversation redacts them too), once. */
  takeTyped(): [string, string][] {
    return this.typed.takeTyped();
  }

  redact<T>(value: T): Promise<T> {
    return this.typed.redact(value);
  }

  /** Marks the tab's current document as holding a typed secret (execute_script refuses it). */
  markSecretTyped(tab: TabRecord, page: Page): Promise<void> {
    return this.marks.mark(tab, page, "secret");
  }

  /** Marks the tab's current document as having run a script of the model's (type_secret refuses it). */
  markScripted(tab: TabRecord, page: Page): Promise<void> {
    return this.marks.mark(tab, page, "script");
  }

  /** Whether the tab's current document holds a typed secret / ran a script of the model's. */
  documentMarked(tab: TabRecord, page: Page, mark: "secret" | "script"): Promise<boolean> {
    return this.marks.marked(tab, page, mark);
  }

  /** A tab's page for the live view's screenshot, or null when the tab does not exist. */
  screenshot(tabId: number): Promise<Uint8Array | null> {
    return this.controls.screenshot(tabId);
  }

  /** Closes the browser (conversation deleted), saving its state into the profile first; forgets its tabs. */
  async shutdown(): Promise<void> {
    await this.exclusive(() => this.closeSaving());
    this.store.clear();
  }

  /** Whether a person watches or was handed a tab (the context is neither closed for idleness nor taken). */
  pinned(): boolean {
    return this.liveViews.viewers() > 0 || (this.store.pinnedUntil() ?? 0) > Date.now();
  }
}
