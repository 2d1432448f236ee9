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
import type { BrowserSessionOptions, ContextSource, ProfileLoader } from "./browser-session-types";
import { BROWSER_GONE, REBUILD_NOTE } from "./browser-session-types";
import { guardContext, targetId } from "./context-guard";
import { PageRestorer } from "./page-restore";
import { saveBrowserState, seedFromProfile } from "./session-state";
import type { TabRecord, TabStore } from "./tab-store";
import { contextRules, rulesKey } from "./websocket-guard";

export type { BlankPage, BrowserSessionOptions, ContextSource, ProfileLoader } from "./browser-session-types";
export { NAVIGATION_TIMEOUT_MS, REBUILD_NOTE } from "./browser-session-types";

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
  /** The saved state put back into the current context's pages. */
  private readonly restorer: PageRestorer;

  constructor(
    private readonly source: ContextSource,
    readonly store: TabStore,
    private readonly options: BrowserSessionOptions,
    private readonly profile?: ProfileLoader,
  ) {
    this.restorer = new PageRestorer({
      store,
      cdp: (page) => this.cdp(page),
      adoptSession: (page, cdp) => this.sessions.set(page, cdp),
      track: (tabId, page) => this.track(tabId, page),
    });
  }

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
      await this.restorer.reopen(this.context!, tab, true);
      this.note = REBUILD_NOTE;
      return this.pages.get(tab.id)!;
    });
  }

  /** Opens a fresh page for a new tab and tracks it (with the saved state, in a new browser). */
  newPage(tabId: number): Promise<Page> {
    return this.recovering(async () => {
      const context = await this.connected();
      const page = await this.restorer.openPage(context);
      await this.restorer.armNewPage(page);
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
    await saveBrowserState(
      this.store,
      pages,
      (page) => this.cdp(page),
      (page, read) => {
        this.seenDocuments.set(page, read.document);
        this.restorer.visit(read.origin);
      },
    );
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
    this.restorer.blank = lease.blank ?? null;
    if (lease.fresh) {
      this.store.setSession(lease.sessionId, true);
      this.store.touch();
      await seedFromProfile(this.store, this.profile, (text) => {
        this.note = text;
      });
      // Nothing to put back (a first call, no profile): pages need no restoring step.
      this.restorer.stateApplied = this.store.cookies().length === 0;
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
    this.restorer.reset();
  }

  /** After a reconnect: maps stored tabs to the session's pages, reopening any that are gone. */
  private async adopt(context: BrowserContext): Promise<void> {
    this.restorer.stateApplied = true;
    const byTarget = new Map<string, Page>();
    for (const page of await context.pages()) byTarget.set(targetId(page), page);
    for (const tab of this.store.tabs()) {
      const page = tab.target_id ? byTarget.get(tab.target_id) : undefined;
      if (page) await this.track(tab.id, page);
      else {
        await this.restorer.reopen(this.context!, tab, true);
        this.note = REBUILD_NOTE;
      }
    }
  }

  /** After a fresh launch: reopens every stored tab with cookies and local storage restored. */
  private async rebuild(): Promise<void> {
    const tabs = this.store.tabs();
    if (tabs.length === 0) return;
    for (const [i, tab] of tabs.entries()) await this.restorer.reopen(this.context!, tab, i === 0);
    const current = this.store.currentTab();
    if (current) await this.pages.get(current.id)?.bringToFront();
    this.note = REBUILD_NOTE;
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
