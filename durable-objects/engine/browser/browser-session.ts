/**
 * One remote browser per conversation: launched on first use with keep_alive, its session id
 * kept in SQLite so later calls and a woken object reconnect instead of launching again, and
 * rebuilt transparently (tabs reopened at their URLs, cookies and local storage restored, same
 * tab ids) when the session has expired, crashed or sat idle past the limit.
 */
import puppeteer, {
  type Browser,
  type BrowserWorker,
  type CDPSession,
  type Page,
} from "@cloudflare/puppeteer";
import { hasDomainLimits } from "../net/allowed-domains";
import { type NavigationPolicy, navigationRefusal, subresourcePolicy } from "./navigation-guard";
import { READ_STORAGE_SCRIPT, restoreStorageScript } from "./page-content";
import { type ProfileState, sitesOf } from "./profile-state";
import type { BrowserRecording } from "../recording/browser-recording";
import type { SavedCookie, SavedStorage, TabRecord, TabStore } from "./tab-store";

/** Cloudflare's longest keep_alive for a browser session. */
export const MAX_KEEP_ALIVE_MS = 600_000;
/** How long navigation may take when a tool waits for the page to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;
/** Errors that mean the browser (not the page or the script) is gone. */
const BROWSER_GONE =
  /Failed to open a new tab|Target closed|Session closed|Connection closed|WebSocket|browser has disconnected|Protocol error \(Target\./i;
/** How long a liveness probe of a kept browser may take. */
const PROBE_TIMEOUT_MS = 3_000;
/** What the model is told after a rebuild. */
export const REBUILD_NOTE =
  "The browser session had ended and was restarted: open tabs were reloaded at their last URLs with cookies and local storage restored. Unsaved page state (form input, scroll position) may be lost.";

/** Settings of a conversation's browser. */
export interface BrowserSessionOptions {
  idleMs: number;
  policy: NavigationPolicy;
  /** How long one execute_script in a page may run. */
  scriptTimeoutMs: number;
}

/** Where a conversation's browser gets its profile's state from, on its first launch. */
export interface ProfileLoader {
  name: string;
  load(): Promise<ProfileState | null>;
}

/** The live browser of one conversation. */
export class BrowserSession {
  private browser: Browser | null = null;
  private ready: Promise<Browser> | null = null;
  private readonly pages = new Map<number, Page>();
  private readonly sessions = new WeakMap<Page, CDPSession>();
  private readonly guarded = new WeakSet<Page>();
  private readonly refusals = new Map<number, string>();
  private note: string | null = null;
  /** Records every tracked page when the conversation records its browser. */
  recording: BrowserRecording | null = null;
  /** Whether the saved cookies were put into the current browser (false right after a launch). */
  private stateApplied = true;
  /** Origins a page of the current browser has been on: their saved storage is not written again. */
  private readonly visited = new Set<string>();

  constructor(
    private readonly binding: BrowserWorker,
    readonly store: TabStore,
    private readonly options: BrowserSessionOptions,
    private readonly profile?: ProfileLoader,
  ) {}

  /** A note for the model about a transparent rebuild, once. */
  takeNote(): string | null {
    const note = this.note;
    this.note = null;
    return note;
  }

  /** The connected browser: kept, reconnected, or launched and rebuilt. */
  async connected(): Promise<Browser> {
    if (this.browser && (await this.alive(this.browser)) && !this.idleExpired()) return this.browser;
    this.ready ??= this.connectOrLaunch().finally(() => {
      this.ready = null;
    });
    return this.ready;
  }

  /** The page of a registered tab, reopening it when its target is gone. */
  page(tab: TabRecord): Promise<Page> {
    return this.recovering(async () => {
      await this.connected();
      const existing = this.pages.get(tab.id);
      if (existing && !existing.isClosed()) return existing;
      await this.reopen(tab, true);
      this.note = REBUILD_NOTE;
      return this.pages.get(tab.id)!;
    });
  }

  /** Opens a fresh page for a new tab and tracks it (with the saved state, in a new browser). */
  newPage(tabId: number): Promise<Page> {
    return this.recovering(async () => {
      const page = await (await this.connected()).newPage();
      if (!this.stateApplied || this.unvisitedStorage()) {
        const identifier = await this.applyState(page, !this.stateApplied);
        page.once("load", () => {
          this.cdp(page)
            .then((cdp) => cdp.send("Page.removeScriptToEvaluateOnNewDocument", { identifier }))
            .catch(() => {});
        });
      }
      await this.track(tabId, page);
      return page;
    });
  }

  /** Saves the open browser's cookies and storage, reconnecting to a kept session first. */
  async captureState(): Promise<void> {
    if (this.store.sessionId() && !this.idleExpired()) {
      await this.connected().catch(() => null);
      await this.saveState();
    }
  }

  /** Runs browser work once more on a fresh session when the browser died under it. */
  private async recovering<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!BROWSER_GONE.test((err as Error).message ?? "")) throw err;
      const dead = this.browser;
      this.browser = null;
      this.pages.clear();
      dead?.disconnect().catch(() => {});
      return work();
    }
  }

  /** Closes a tab's page and forgets it. */
  async closePage(tabId: number): Promise<void> {
    await this.recording?.detach(tabId);
    const page = this.pages.get(tabId);
    this.pages.delete(tabId);
    this.refusals.delete(tabId);
    if (page && !page.isClosed()) await page.close().catch(() => {});
  }

  /** A CDP session on a page, created once per page. */
  async cdp(page: Page): Promise<CDPSession> {
    let session = this.sessions.get(page);
    if (!session) {
      session = await page.createCDPSession();
      this.sessions.set(page, session);
    }
    return session;
  }

  /** Why the last navigation of a tab was refused by the guard, once. */
  takeRefusal(tabId: number): string | null {
    const reason = this.refusals.get(tabId) ?? null;
    this.refusals.delete(tabId);
    return reason;
  }

  /** Saves cookies and local storage so a rebuilt session looks the same, and marks the use. */
  async saveState(): Promise<void> {
    this.store.touch();
    const pages = [...this.pages.values()].filter((p) => !p.isClosed());
    if (!this.browser || pages.length === 0) return;
    const storage: SavedStorage = {};
    let cookies: SavedCookie[] = [];
    try {
      const raw = (await (await this.cdp(pages[0])).send("Network.getAllCookies")).cookies;
      cookies = raw.map((c) => ({
        name: c.name,
        value: c.value,
        domain: c.domain,
        path: c.path,
        httpOnly: c.httpOnly,
        secure: c.secure,
        sameSite: c.sameSite,
        ...(c.session ? {} : { expires: c.expires }),
      }));
      for (const page of pages) {
        const read = (await page.evaluate(READ_STORAGE_SCRIPT)) as {
          origin: string;
          entries: [string, string][] | null;
        };
        if (read.entries && read.origin !== "null") storage[read.origin] = read.entries;
        this.visited.add(read.origin);
      }
    } catch {
      return; // a page mid-navigation; the next call saves again
    }
    this.store.saveState(cookies, storage);
  }

  /** Closes the browser for good (conversation deleted or idle). */
  async close(): Promise<void> {
    await this.recording?.close();
    const browser = this.browser;
    this.browser = null;
    this.pages.clear();
    const sessionId = this.store.sessionId();
    try {
      if (browser?.isConnected()) await browser.close();
      else if (sessionId) await (await puppeteer.connect(this.binding, sessionId)).close();
    } catch {
      // already gone
    }
    this.store.setSession(null, false);
  }

  private idleExpired(): boolean {
    const last = this.store.lastUsed();
    return last !== null && Date.now() - last > this.options.idleMs;
  }

  private async alive(browser: Browser): Promise<boolean> {
    if (!browser.isConnected()) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    const ok = await Promise.race([
      browser.version().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    return ok;
  }

  private async connectOrLaunch(): Promise<Browser> {
    const sessionId = this.store.sessionId();
    if (sessionId && this.idleExpired()) await this.close();
    else if (sessionId) {
      try {
        const browser = await puppeteer.connect(this.binding, sessionId);
        await this.adopt(browser);
        return browser;
      } catch {
        // expired or crashed: launch a new one below
      }
    }
    const browser = await puppeteer.launch(this.binding, {
      keep_alive: Math.min(this.options.idleMs, MAX_KEEP_ALIVE_MS),
    });
    this.store.setSession(browser.sessionId(), true);
    this.store.touch();
    this.listen(browser);
    await this.seedFromProfile();
    this.stateApplied = false;
    await this.rebuild();
    return browser;
  }

  private listen(browser: Browser): void {
    this.browser = browser;
    this.pages.clear();
    this.visited.clear();
    browser.on("disconnected", () => {
      if (this.browser === browser) this.browser = null;
    });
  }

  /** On the first launch of a conversation with a profile: its state becomes the saved state. */
  private async seedFromProfile(): Promise<void> {
    if (!this.profile || this.store.profileSites() !== null) return;
    const state = await this.profile.load();
    if (!state) {
      this.note = `The browser profile ${this.profile.name} no longer exists; the browser started without it.`;
      this.store.seedFromProfile(this.store.cookies(), this.store.storage(), []);
      return;
    }
    this.store.seedFromProfile(state.cookies, state.storage, sitesOf(state));
  }

  /** After a reconnect: maps stored tabs to the session's pages, reopening any that are gone. */
  private async adopt(browser: Browser): Promise<void> {
    this.listen(browser);
    this.stateApplied = true;
    const byTarget = new Map<string, Page>();
    for (const page of await browser.pages()) byTarget.set(targetId(page), page);
    for (const tab of this.store.tabs()) {
      const page = tab.target_id ? byTarget.get(tab.target_id) : undefined;
      if (page) await this.track(tab.id, page);
      else {
        await this.reopen(tab, true);
        this.note = REBUILD_NOTE;
      }
    }
  }

  /** After a fresh launch: reopens every stored tab with cookies and local storage restored. */
  private async rebuild(): Promise<void> {
    const tabs = this.store.tabs();
    if (tabs.length === 0) return;
    for (const [i, tab] of tabs.entries()) await this.reopen(tab, i === 0);
    const current = this.store.currentTab();
    if (current) await this.pages.get(current.id)?.bringToFront();
    this.note = REBUILD_NOTE;
  }

  private async reopen(tab: TabRecord, restoreCookies: boolean): Promise<void> {
    const page = await this.browser!.newPage();
    const identifier = await this.applyState(page, restoreCookies || !this.stateApplied);
    await this.track(tab.id, page);
    if (tab.url && tab.url !== "about:blank") {
      await page.goto(tab.url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {});
    }
    const cdp = await this.cdp(page);
    await cdp.send("Page.removeScriptToEvaluateOnNewDocument", { identifier }).catch(() => {});
  }

  /** Puts the saved cookies into the browser (when asked) and arms the local-storage restore on a page. */
  private async applyState(page: Page, cookies: boolean): Promise<string> {
    const cdp = await this.cdp(page);
    const saved = this.store.cookies();
    if (cookies && saved.length > 0) await cdp.send("Network.setCookies", { cookies: saved });
    if (cookies) this.stateApplied = true;
    const { identifier } = await cdp.send("Page.addScriptToEvaluateOnNewDocument", {
      source: restoreStorageScript(this.unvisitedStorage() ?? {}),
    });
    return identifier;
  }

  /** Saved local storage of origins no page of this browser has been on yet, or null when none. */
  private unvisitedStorage(): SavedStorage | null {
    const left = Object.entries(this.store.storage()).filter(([origin]) => !this.visited.has(origin));
    return left.length > 0 ? Object.fromEntries(left) : null;
  }

  /** Registers a page under a tab id and applies the navigation guard to it. */
  private async track(tabId: number, page: Page): Promise<void> {
    this.pages.set(tabId, page);
    this.store.updateTab(tabId, { target_id: targetId(page) });
    await this.guard(tabId, page);
    if (this.recording) await this.recording.attach(tabId, page, await this.cdp(page));
  }

  /** Applies a changed policy (e.g. new workspace allowed_domains) to the pages already open. */
  async policyChanged(): Promise<void> {
    for (const [tabId, page] of this.pages) if (!page.isClosed()) await this.guard(tabId, page);
  }

  /** Intercepts a page's requests when the policy limits anything; the policy is read per request. */
  private async guard(tabId: number, page: Page): Promise<void> {
    const { policy } = this.options;
    if (this.guarded.has(page) || (policy.allowPrivateNetwork && !hasDomainLimits(policy))) return;
    this.guarded.add(page);
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      if (req.isInterceptResolutionHandled()) return;
      const navigation = req.isNavigationRequest();
      const web = /^https?:/i.test(req.url());
      const refusal = navigationRefusal(req.url(), navigation ? policy : subresourcePolicy(policy));
      if (!refusal || (!web && !navigation)) {
        req.continue().catch(() => {});
        return;
      }
      if (navigation && req.frame() === page.mainFrame()) this.refusals.set(tabId, refusal);
      req.abort("aborted").catch(() => {});
    });
  }
}

/** The CDP target id of a page (stable for the page's life, also across reconnects). */
export function targetId(page: Page): string {
  return (page.target() as unknown as { _targetId: string })._targetId;
}
