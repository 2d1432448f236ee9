/**
 * One conversation's browser: an isolated browser context in a session of the workspace's fleet
 * (./fleet/browser-pool.ts), its tabs kept in SQLite so a context that was closed (idle, taken
 * for a waiting conversation), lost with its session or left by a restarted fleet is rebuilt
 * transparently (tabs reopened at their URLs, cookies and local storage restored, same tab ids).
 * Per-context hooks attach where a lease arrives ({@link BrowserSession.connected}: the request
 * guard of the whole context, ./context-guard.ts) or per page ({@link BrowserSession.track}:
 * recording).
 */
import type { BrowserContext, CDPSession, Page } from "@cloudflare/puppeteer";
import type { BrowserRecording } from "../recording/browser-recording";
import { guardContext, targetId } from "./context-guard";
import { retryTransient } from "./fleet/launch";
import type { NavigationPolicy } from "./navigation-guard";
import { READ_STORAGE_SCRIPT, restoreStorageScript } from "./page-content";
import { type ProfileState, sitesOf } from "./profile-state";
import type { ResponseHandler } from "./request-guard";
import type { SavedCookie, SavedStorage, TabRecord, TabStore } from "./tab-store";
import { type ContextRules, contextRules, rulesKey } from "./websocket-guard";

/** A blank page made ahead of need (a fleet browser's spare), with its CDP session. */
export interface BlankPage {
  page: Page;
  cdp: CDPSession;
}

/** How long navigation may take when a tool waits for the page to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;
/** Errors that mean the browser (not the page or the script) is gone. */
const BROWSER_GONE =
  /Failed to open a new tab|Target closed|Session closed|Connection closed|WebSocket|browser has disconnected|Protocol error \(Target\./i;
/** What the model is told after a rebuild. */
export const REBUILD_NOTE =
  "The browser session had ended and was restarted: open tabs were reloaded at their last URLs with cookies and local storage restored. Unsaved page state (form input, scroll position) may be lost.";

/** Settings of a conversation's browser. */
export interface BrowserSessionOptions {
  idleMs: number;
  policy: NavigationPolicy;
  /** How long one execute_script in a page may run. */
  scriptTimeoutMs: number;
  /** Where a page's downloads are caught (at the response stage of the request guard). */
  downloads?: ResponseHandler;
}

/** Where a conversation's context comes from: the fleet's pool. */
export interface ContextSource {
  /** The conversation's context: kept, or new (`fresh`: empty, state must be restored). */
  lease(
    rules: ContextRules | null,
  ): Promise<{ context: BrowserContext; fresh: boolean; sessionId: string; blank?: BlankPage }>;
  /** Closes the conversation's context (its session closes when no other conversation uses it); `lost`: its browser died under a call. */
  drop(lost?: boolean): Promise<void>;
}

/** Where a conversation's browser gets its profile's state from, on its first launch. */
export interface ProfileLoader {
  name: string;
  load(): Promise<ProfileState | null>;
}

/** The live browser of one conversation. */
export class BrowserSession {
  private context: BrowserContext | null = null;
  private ready: Promise<BrowserContext> | null = null;
  private readonly pages = new Map<number, Page>();
  /** The document each page showed when the last tool call on it ended (see `seenDocument`). */
  private readonly seenDocuments = new WeakMap<Page, number>();
  private readonly sessions = new WeakMap<Page, CDPSession>();
  /** Takes the context out of its session's request guard (a no-op when none is guarded). */
  private unguard: () => void = () => {};
  private readonly refusals = new Map<number, string>();
  private note: string | null = null;
  /** Records every tracked page when the conversation records its browser. */
  recording: BrowserRecording | null = null;
  /** Whether the saved cookies were put into the current browser (false right after a launch). */
  private stateApplied = true;
  /** Origins a page of the current browser has been on: their saved storage is not written again. */
  private readonly visited = new Set<string>();
  /** The blank page the fleet made ahead in a new context (the spare's): the first page a tab needs. */
  private blank: BlankPage | null = null;

  constructor(
    private readonly source: ContextSource,
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

  /** The conversation's context: kept, or new and rebuilt (after an idle close, a loss or a restart). */
  async connected(): Promise<BrowserContext> {
    this.ready ??= this.leaseAndRebuild().finally(() => {
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
      const context = await this.connected();
      const page = await this.openPage(context);
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
      if (!(await this.forgetIfGone(err))) throw err;
      return work();
    }
  }

  /**
   * When `err` means the browser died (a session killed from outside is only noticed when a
   * command fails), forgets its context so the next use rebuilds it; true if it did.
   */
  async forgetIfGone(err: unknown): Promise<boolean> {
    if (!BROWSER_GONE.test((err as Error)?.message ?? "")) return false;
    this.releaseGuard();
    this.context = null;
    this.pages.clear();
    await this.source.drop(true).catch(() => {});
    return true;
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

  /** The document (time origin) a page showed when the last tool call on it ended; null when not known. */
  seenDocument(page: Page): number | null {
    return this.seenDocuments.get(page) ?? null;
  }

  /** Saves cookies and local storage so a rebuilt session looks the same, and marks the use. */
  async saveState(): Promise<void> {
    this.store.touch();
    const pages = [...this.pages.values()].filter((p) => !p.isClosed());
    if (!this.context || pages.length === 0) return;
    const storage: SavedStorage = {};
    let cookies: SavedCookie[] = [];
    try {
      // One round trip's worth of waiting: the cookies and every page's storage are read at once.
      const [raw, reads] = await Promise.all([
        this.cdp(pages[0]).then((cdp) => cdp.send("Network.getAllCookies")),
        Promise.all(pages.map((page) => page.evaluate(READ_STORAGE_SCRIPT))),
      ]);
      cookies = raw.cookies.map((c) => ({
        name: c.name,
        value: c.value,
        domain: c.domain,
        path: c.path,
        httpOnly: c.httpOnly,
        secure: c.secure,
        sameSite: c.sameSite,
        ...(c.session ? {} : { expires: c.expires }),
      }));
      for (const [i, result] of reads.entries()) {
        const read = result as { origin: string; entries: [string, string][] | null; document: number };
        this.seenDocuments.set(pages[i], read.document);
        if (read.entries && read.origin !== "null") storage[read.origin] = read.entries;
        this.visited.add(read.origin);
      }
    } catch {
      return; // a page mid-navigation; the next call saves again
    }
    this.store.saveState(cookies, storage);
  }

  /** Closes the conversation's context (conversation deleted or idle); its tabs stay remembered. */
  async close(): Promise<void> {
    await this.recording?.close();
    this.releaseGuard();
    this.context = null;
    this.pages.clear();
    await this.source.drop().catch(() => {});
    this.store.setSession(null, false);
  }

  private idleExpired(): boolean {
    const last = this.store.lastUsed();
    return last !== null && Date.now() - last > this.options.idleMs;
  }

  /** Leases the context; a new one gets the saved state and the tabs back, a kept one its pages mapped. */
  private async leaseAndRebuild(): Promise<BrowserContext> {
    if (this.store.sessionId() && this.idleExpired()) await this.close();
    const rules = contextRules(this.options.policy);
    // A context made under other WebSocket rules (allowed_domains changed) is replaced: tabs come back.
    if (this.store.sessionId() && this.store.contextRules() !== rulesKey(rules)) await this.close();
    const lease = await this.source.lease(rules);
    if (lease.fresh) this.store.setContextRules(rulesKey(rules));
    if (lease.context === this.context && !lease.fresh) return lease.context;
    this.listen(lease.context);
    await this.guardContext(lease.context);
    this.blank = lease.blank ?? null;
    if (lease.fresh) {
      this.store.setSession(lease.sessionId, true);
      this.store.touch();
      await this.seedFromProfile();
      // Nothing to put back (a first call, no profile): pages need no restoring step.
      this.stateApplied = this.store.cookies().length === 0;
      await this.rebuild();
    } else {
      this.store.setSession(lease.sessionId, false);
      await this.adopt(lease.context);
    }
    return lease.context;
  }

  private listen(context: BrowserContext): void {
    this.releaseGuard();
    this.context = context;
    this.pages.clear();
    this.visited.clear();
    this.blank = null;
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
  private async adopt(context: BrowserContext): Promise<void> {
    this.stateApplied = true;
    const byTarget = new Map<string, Page>();
    for (const page of await context.pages()) byTarget.set(targetId(page), page);
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
    const page = await this.openPage(this.context!);
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

  /** A page for a tab: the context's blank page made ahead when there is one, else a new one. */
  private async openPage(context: BrowserContext): Promise<Page> {
    const blank = this.blank;
    this.blank = null;
    if (blank && !blank.page.isClosed()) {
      this.sessions.set(blank.page, blank.cdp);
      return blank.page;
    }
    return retryTransient(() => context.newPage());
  }

  /** Registers a page under a tab id (the context's request guard already covers it). */
  private async track(tabId: number, page: Page): Promise<void> {
    this.pages.set(tabId, page);
    this.store.updateTab(tabId, { target_id: targetId(page) });
    if (this.recording) await this.recording.attach(tabId, page, await this.cdp(page));
  }

  private releaseGuard(): void {
    this.unguard();
    this.unguard = () => {};
  }

  /** Puts the context under its session's request guard (every request of its pages, popups, frames, workers). */
  private async guardContext(context: BrowserContext): Promise<void> {
    this.unguard = await guardContext(context, {
      pages: this.pages,
      store: this.store,
      policy: () => this.options.policy,
      downloads: this.options.downloads,
      refused: (tabId, reason) => this.refusals.set(tabId, reason),
      track: (tabId, page) => this.track(tabId, page),
      noted: (text) => {
        this.note = this.note ? `${this.note} ${text}` : text;
      },
    });
  }
}
