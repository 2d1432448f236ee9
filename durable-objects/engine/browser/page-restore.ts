/**
 * Putting a conversation's saved browser state back into its context's pages
 * (./browser-session.ts): a tab's page is the blank page made ahead when there is one, the saved
 * cookies go into a new browser once, each origin's saved local storage is restored until a page
 * of the browser has been on it, and stored tabs are reopened at their last URLs.
 */
import type { BrowserContext, CDPSession, Page } from "@cloudflare/puppeteer";
import { type BlankPage, NAVIGATION_TIMEOUT_MS } from "./browser-session-types";
import { retryTransient } from "./fleet/launch";
import { restoreStorageScript } from "./page-content";
import type { SavedStorage, TabRecord, TabStore } from "./tab-store";

/** What the restoring needs of the conversation's browser. */
export interface RestoreHost {
  store: TabStore;
  /** A page's CDP session, created once per page. */
  cdp(page: Page): Promise<CDPSession>;
  /** Makes `cdp` the page's CDP session (the blank page's, made ahead with it). */
  adoptSession(page: Page, cdp: CDPSession): void;
  /** Registers a page under a tab id. */
  track(tabId: number, page: Page): Promise<void>;
}

/** The saved-state bookkeeping of the current context of a conversation's browser. */
export class PageRestorer {
  /** Whether the saved cookies were put into the current browser (false right after a launch). */
  stateApplied = true;
  /** Origins a page of the current browser has been on: their saved storage is not written again. */
  private readonly visited = new Set<string>();
  /** The blank page the fleet made ahead in a new context (the spare's): the first page a tab needs. */
  blank: BlankPage | null = null;

  constructor(private readonly host: RestoreHost) {}

  /** A new context: no origin visited, no blank page. */
  reset(): void {
    this.visited.clear();
    this.blank = null;
  }

  /** Notes that a page of the current browser has been on an origin. */
  visit(origin: string): void {
    this.visited.add(origin);
  }

  /** Arms a new tab's page with the saved state when a new browser still needs it, for its first load. */
  async armNewPage(page: Page): Promise<void> {
    if (!this.stateApplied || this.unvisitedStorage()) {
      const identifier = await this.applyState(page, !this.stateApplied);
      page.once("load", () => {
        this.host
          .cdp(page)
          .then((cdp) => cdp.send("Page.removeScriptToEvaluateOnNewDocument", { identifier }))
          .catch(() => {});
      });
    }
  }

  /** Reopens a stored tab in `context` at its last URL with the saved state (cookies when asked). */
  async reopen(context: BrowserContext, tab: TabRecord, restoreCookies: boolean): Promise<void> {
    const page = await this.openPage(context);
    const identifier = await this.applyState(page, restoreCookies || !this.stateApplied);
    await this.host.track(tab.id, page);
    if (tab.url && tab.url !== "about:blank") {
      await page.goto(tab.url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS }).catch(() => {});
    }
    const cdp = await this.host.cdp(page);
    await cdp.send("Page.removeScriptToEvaluateOnNewDocument", { identifier }).catch(() => {});
  }

  /** A page for a tab: the context's blank page made ahead when there is one, else a new one. */
  async openPage(context: BrowserContext): Promise<Page> {
    const blank = this.blank;
    this.blank = null;
    if (blank && !blank.page.isClosed()) {
      this.host.adoptSession(blank.page, blank.cdp);
      return blank.page;
    }
    return retryTransient(() => context.newPage());
  }

  /** Puts the saved cookies into the browser (when asked) and arms the local-storage restore on a page. */
  private async applyState(page: Page, cookies: boolean): Promise<string> {
    const cdp = await this.host.cdp(page);
    const saved = this.host.store.cookies();
    if (cookies && saved.length > 0) await cdp.send("Network.setCookies", { cookies: saved });
    if (cookies) this.stateApplied = true;
    const { identifier } = await cdp.send("Page.addScriptToEvaluateOnNewDocument", {
      source: restoreStorageScript(this.unvisitedStorage() ?? {}),
    });
    return identifier;
  }

  /** Saved local storage of origins no page of this browser has been on yet, or null when none. */
  private unvisitedStorage(): SavedStorage | null {
    const storage = this.host.store.storage();
    const left = Object.entries(storage).filter(([origin]) => !this.visited.has(origin));
    return left.length > 0 ? Object.fromEntries(left) : null;
  }
}
