/**
 * The browser of one conversation as its Durable Object holds it: session, tabs and the secrets
 * typed in it, wired to the tools' {@link BrowserOps} interface.
 */
import type { BrowserWorker, CDPSession, Page } from "@cloudflare/puppeteer";
import type { BrowserInput, ProfileSaved } from "../../../schemas/browser-api";
import { fail, type RpcResult } from "../rpc-result";
import type { BrowserOps, SecretReader } from "../tools/browser-shared";
import { BrowserSession, type BrowserSessionOptions, type ProfileLoader } from "./browser-session";
import type { BrowserRecording } from "../recording/browser-recording";
import { type LiveViewOptions, LiveViews } from "./live-view";
import type { ProfileState } from "./profile-state";
import { dispatchInput, inputGeometry } from "./remote-input";
import { type OpenTabOptions, type TabFilter, TabManager, type TabView } from "./tab-manager";
import { type TabRecord, TabStore } from "./tab-store";

/** Marker put where a typed secret's value would appear. */
const secretMarker = (name: string) => `<secret:${name}>`;

/** What a conversation's browser needs from its Durable Object. */
export interface ConversationBrowserDeps {
  binding: BrowserWorker;
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
  private readonly typed = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly liveViews: LiveViews;
  readonly scriptTimeoutMs: number;

  constructor(private readonly deps: ConversationBrowserDeps) {
    this.store = new TabStore(deps.sql);
    this.scriptTimeoutMs = deps.options.scriptTimeoutMs;
    this.session = new BrowserSession(deps.binding, this.store, deps.options, deps.profile);
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
    this.queue = next.catch(() => {});
    return next;
  }

  takeRefusal(tabId: number): string | null {
    return this.session.takeRefusal(tabId);
  }

  async settle(): Promise<string | null> {
    await this.session.saveState();
    this.tabs.changed();
    const deadline = this.idleDeadline();
    if (deadline !== null) await this.deps.wakeBy?.(deadline);
    return this.session.takeNote();
  }

  /** When the open browser becomes idle past the limit, or null when none is open. */
  idleDeadline(): number | null {
    const last = this.store.lastUsed();
    return this.store.sessionId() && last !== null ? last + this.deps.options.idleMs : null;
  }

  /** Closes the browser when it has been idle past the limit (called from the alarm); true if it did. */
  closeIfIdle(): Promise<boolean> {
    return this.exclusive(async () => {
      const deadline = this.idleDeadline();
      if (deadline === null || Date.now() < deadline) return false;
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
    try {
      const view = await this.exclusive(async () => this.tabs.view(tab, await this.session.page(tab)));
      return { url: view.url, title: view.title };
    } catch {
      return { url: tab.url, title: tab.title };
    }
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

  /** Sets the workspace's allowed_domains (read from its settings before each run or tool call). */
  async setWorkspaceDomains(domains: string[] | null): Promise<void> {
    const policy = this.deps.options.policy;
    if (JSON.stringify(policy.workspaceDomains ?? null) === JSON.stringify(domains)) return;
    policy.workspaceDomains = domains;
    await this.exclusive(() => this.session.policyChanged());
  }

  rememberSecret(name: string, value: string): void {
    this.typed.set(name, value);
    this.store.addTypedSecret(name);
  }

  async redact<T>(value: T): Promise<T> {
    for (const name of this.store.typedSecrets()) {
      if (!this.typed.has(name)) {
        const v = await this.deps.secrets.read(name).catch(() => null);
        if (v) this.typed.set(name, v);
      }
    }
    const secrets = [...this.typed].filter(([, v]) => v.length > 0);
    if (secrets.length === 0) return value;
    const forms = secrets.flatMap(([n, v]) => [
      [n, v],
      [n, JSON.stringify(v).slice(1, -1)],
    ]);
    const scrub = (s: string) => forms.reduce((acc, [n, v]) => acc.split(v).join(secretMarker(n)), s);
    if (value instanceof Error) {
      value.message = scrub(value.message);
      return value;
    }
    if (typeof value === "string") return scrub(value) as T;
    const json = JSON.stringify(value);
    return json === undefined ? value : (JSON.parse(scrub(json)) as T);
  }

  /** A tab's page for the live view's screenshot, or null when the tab does not exist. */
  async screenshot(tabId: number): Promise<Uint8Array | null> {
    const tab = this.store.tab(tabId);
    if (!tab) return null;
    const page = await this.session.page(tab);
    return (await page.screenshot({ type: "png" })) as Uint8Array;
  }

  /** Closes the browser (conversation deleted), saving its state into the profile first. */
  shutdown(): Promise<void> {
    return this.closeSaving();
  }
}
