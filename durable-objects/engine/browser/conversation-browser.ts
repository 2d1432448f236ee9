/**
 * The browser of one conversation as the workspace's fleet holds it: its context, tabs and the
 * secrets typed in it, wired to the tools' {@link BrowserOps} interface.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { BrowserInput, ProfileSaved } from "../../../schemas/browser-api";
import type { BrowserFilesLimits } from "../config/browser-config";
import type { BrowserRecording } from "../recording/browser-recording";
import { fail, type RpcResult } from "../rpc-result";
import { type Redaction, redactionOf, SecretRedactor } from "../secrets/secret-redactor";
import type { BrowserOps, SecretReader } from "../tools/browser-shared";
import {
  BrowserSession,
  type BrowserSessionOptions,
  type ContextSource,
  type ProfileLoader,
} from "./browser-session";
import { DownloadCatcher, type DownloadedFile, type DownloadSink, type RefusedDownload } from "./downloads";
import { type LiveViewOptions, LiveViews } from "./live-view";
import type { ProfileState } from "./profile-state";
import { dispatchInput, inputGeometry } from "./remote-input";
import { type OpenTabOptions, type TabFilter, TabManager, type TabView } from "./tab-manager";
import { type TabRecord, TabStore } from "./tab-store";

/** How long a take-over's end waits for the tab's live URL and title before using the stored ones. */
const FACTS_WAIT_MS = 3_000;

/** What a conversation's browser needs from the fleet. */
export interface ConversationBrowserDeps {
  /** The conversation's id: the scope of its rows in the fleet's SQLite. */
  conversationId: string;
  source: ContextSource;
  sql: SqlStorage;
  options: BrowserSessionOptions;
  secrets: SecretReader;
  /** Publishes the tab list to the conversation's state. */
  publishTabs(tabs: TabRecord[]): void;
  /** Asks for a wake-up (the Durable Object's alarm) no later than `at`, to close an idle browser. */
  wakeBy?(at: number): Promise<void>;
  /** The conversation's browser profile: loaded on the first launch, saved back on request and on close. */
  profile?: BrowserProfileLink;
  live: LiveViewOptions;
  /** Set when the conversation records its browser: where recordings go. */
  recording?: BrowserRecording;
  /** Caps on uploads and downloads. */
  files: BrowserFilesLimits;
  /** Where a download goes while no tool call runs (a person's click in the live view); none: refused. */
  outsideDownloads?: DownloadSink;
}

/** A conversation's link to its workspace's browser profile. */
export interface BrowserProfileLink extends ProfileLoader {
  save(snapshot: ProfileState, knownSites: string[]): Promise<RpcResult<ProfileSaved>>;
}

/** A conversation's browser: tab tools' operations plus lifecycle for the Durable Object. */
export class ConversationBrowser implements BrowserOps {
  readonly store: TabStore;
  private readonly session: BrowserSession;
  private readonly tabs: TabManager;
  private readonly typed = new SecretRedactor();
  private readonly newlyTyped: [string, string][] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** Work of the current exclusive call left for after its answer (the state save); the next call waits for it. */
  private afterAnswer: (() => Promise<void>) | null = null;
  private readonly liveViews: LiveViews;
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
    if (deps.recording) deps.recording.redact = (json) => this.redact(json);
    this.liveViews = new LiveViews(deps.live);
    this.tabs = new TabManager(this.session, deps.options.policy, (tabs) => deps.publishTabs(tabs));
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
    const recorded = async () => {
      try {
        return await work();
      } finally {
        await this.session.recording?.flushAll();
      }
    };
    const next = this.queue.then(recorded, recorded);
    // The call's answer goes out first; what it left for afterwards runs before the next call.
    const afterwards = () => this.runAfterAnswer();
    this.queue = next.then(afterwards, afterwards);
    return next;
  }

  /** Resolves once every call so far, and the work each left for after its answer, is done. */
  drained(): Promise<void> {
    return this.queue.then(() => {});
  }

  private async runAfterAnswer(): Promise<void> {
    const work = this.afterAnswer;
    this.afterAnswer = null;
    await work?.().catch(() => {});
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
    this.afterAnswer = () => this.session.saveState();
    this.tabs.changed();
    const deadline = this.idleDeadline();
    if (deadline !== null) await this.deps.wakeBy?.(deadline);
    return this.session.takeNote();
  }

  /** `settle` outside a call's turn (a take-over's end, which must not wait behind a slow page): the state is saved at once. */
  async settleNow(): Promise<string | null> {
    const note = await this.settle();
    await this.runAfterAnswer();
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
  async live(tabId: number): Promise<ReadableStream<Uint8Array> | null> {
    const tab = this.store.tab(tabId);
    if (!tab) return null;
    this.store.touch();
    return this.liveViews.stream(tabId, async () => {
      const page = await this.session.page(tab);
      // A CDP session of its own, so the screencast's events never mix with the tools' session.
      return { page, cdp: await page.createCDPSession() };
    });
  }

  /** A tab's current URL and title (read from its page, else as last stored), or null when it is gone. */
  async tabFacts(tabId: number): Promise<{ url: string; title: string } | null> {
    const tab = this.store.tab(tabId);
    if (!tab) return null;
    const stored = { url: tab.url, title: tab.title };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof stored>((resolve) => {
      timer = setTimeout(() => resolve(stored), FACTS_WAIT_MS);
    });
    const read = this.exclusive(async () => this.tabs.view(tab, await this.session.page(tab))).then(
      (view) => ({ url: view.url, title: view.title }),
      () => stored,
    );
    const facts = await Promise.race([read, late]);
    clearTimeout(timer);
    return facts;
  }

  /** How many live views are open on the tabs. */
  liveViewers(): number {
    return this.liveViews.viewers();
  }

  /** Forwards a person's input to a tab; false when the tab does not exist. Throws InputRefused. */
  async input(tabId: number, input: BrowserInput): Promise<boolean> {
    const tab = this.store.tab(tabId);
    if (!tab) return false;
    const page = await this.session.page(tab);
    await dispatchInput(page, input, await inputGeometry(page, this.liveViews.geometry(tabId)));
    this.store.touch();
    return true;
  }

  /** Writes the browser's current cookies and local storage into the conversation's profile. */
  saveProfile(): Promise<RpcResult<ProfileSaved>> {
    if (!this.deps.profile) return this.saveProfileNow(); // the refusal needs no browser
    return this.exclusive(() => this.saveProfileNow());
  }

  private async saveProfileNow(): Promise<RpcResult<ProfileSaved>> {
    const profile = this.deps.profile;
    if (!profile)
      return fail(
        409,
        "no_browser_profile",
        "This conversation was created without a browser_profile, so there is nothing to save to.",
      );
    await this.session.captureState();
    const snapshot: ProfileState = { cookies: this.store.cookies(), storage: this.store.storage() };
    return profile.save(snapshot, this.store.profileSites() ?? []);
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
    this.store.addTypedSecret(name);
    this.newlyTyped.push([name, value]);
  }

  /** The values typed since the last call (the conversation redacts them too), once. */
  takeTyped(): [string, string][] {
    return this.newlyTyped.splice(0);
  }

  /** The redaction of every secret typed in this browser, for tool results and run output. */
  readonly redaction: Redaction = redactionOf(this.typed, () => this.loadTyped());

  async redact<T>(value: T): Promise<T> {
    await this.loadTyped();
    return this.typed.value(value);
  }

  /** After a wake: reads the values of the secrets typed before (names are kept in SQLite). */
  private async loadTyped(): Promise<void> {
    for (const name of this.store.typedSecrets()) {
      if (this.typed.knows(name)) continue;
      const secret = await this.deps.secrets.read(name).catch(() => null);
      if (secret) this.typed.remember(name, secret.value);
    }
  }

  /** Marks the tab's current document as holding a typed secret (execute_script refuses it). */
  async markSecretTyped(tab: TabRecord, page: Page): Promise<void> {
    this.store.markDocument(tab.id, "secret", await this.documentId(page));
  }

  /** Marks the tab's current document as having run a script of the model's (type_secret refuses it). */
  async markScripted(tab: TabRecord, page: Page): Promise<void> {
    this.store.markDocument(tab.id, "script", await this.documentId(page));
  }

  /** Whether the tab's current document holds a typed secret / ran a script of the model's. */
  async documentMarked(tab: TabRecord, page: Page, mark: "secret" | "script"): Promise<boolean> {
    const marked = this.store.markedDocument(tab.id, mark);
    return marked !== null && marked === (await this.documentId(page));
  }

  /** The id of the document a tab shows now (its main frame's loader: a new one per navigation). */
  private async documentId(page: Page): Promise<string> {
    const { frameTree } = await (await this.session.cdp(page)).send("Page.getFrameTree");
    return frameTree.frame.loaderId;
  }

  /** A tab's page for the live view's screenshot, or null when the tab does not exist. */
  async screenshot(tabId: number): Promise<Uint8Array | null> {
    const tab = this.store.tab(tabId);
    if (!tab) return null;
    const page = await this.session.page(tab);
    return (await page.screenshot({ type: "png" })) as Uint8Array;
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
