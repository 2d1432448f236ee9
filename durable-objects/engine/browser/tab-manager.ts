/**
 * Tab operations over a conversation's browser: open (new tab or navigate one), close, activate
 * and list, keeping exactly one active tab per window and publishing the tab list on change.
 */
import type { Page } from "@cloudflare/puppeteer";
import { BrowserError } from "../errors";
import { type BrowserSession, NAVIGATION_TIMEOUT_MS } from "./browser-session";
import { TRANSIENT } from "./fleet/launch";
import { assertNavigable, type NavigationPolicy } from "./navigation-guard";
import { TAB_FACTS_SCRIPT } from "./page-content";
import { DEFAULT_WINDOW_ID, type TabRecord } from "./tab-store";

/** How long reading a tab's title and loading state may take before stored facts are used. */
const FACTS_TIMEOUT_MS = 2_000;

/** A tab as tools and the live view show it. */
export interface TabView {
  id: number;
  window_id: number;
  url: string;
  title: string;
  active: boolean;
  loading: boolean;
}

/** What list_tabs can filter on. */
export interface TabFilter {
  url_pattern?: string;
  title_pattern?: string;
  active?: boolean;
  window_id?: number;
  audible?: boolean;
}

/** How to open a tab. */
export interface OpenTabOptions {
  url: string;
  tabId?: number;
  active: boolean;
  windowId?: number;
  waitUntilLoaded: boolean;
}

interface PageFacts {
  title: string;
  loading: boolean;
  audible: boolean;
}

/** The tab operations of one conversation. */
export class TabManager {
  constructor(
    readonly session: BrowserSession,
    private readonly policy: NavigationPolicy,
    private readonly onChange: (tabs: TabRecord[]) => void,
  ) {}

  /** A registered tab or a not_found error listing the open ones. */
  mustTab(id: number): TabRecord {
    const tab = this.session.store.tab(id);
    if (tab) return tab;
    const ids = this.session.store.tabs().map((t) => t.id);
    throw new BrowserError(
      "not_found",
      `No tab ${id}. Open tabs: ${ids.length ? ids.join(", ") : "none"} (see list_tabs).`,
    );
  }

  /** The tab named by `tabId`, else the active tab of the focused window, with its page. */
  async resolve(tabId?: number): Promise<{ tab: TabRecord; page: Page }> {
    const tab = tabId === undefined ? this.session.store.currentTab() : this.mustTab(tabId);
    if (!tab) throw new BrowserError("no_tab", "No tab is open. Open one with open_tab first.");
    return { tab, page: await this.session.page(tab) };
  }

  /**
   * Opens `url` in a new tab, or navigates an existing one. A new tab whose page closed under it
   * while loading (a target closed, a frame detached: a busy shared browser) is opened once more.
   */
  async open(opts: OpenTabOptions, retry = true): Promise<TabView> {
    assertNavigable(opts.url, this.policy);
    const store = this.session.store;
    const isNew = opts.tabId === undefined;
    let tab: TabRecord;
    let page: Page;
    if (opts.tabId !== undefined) {
      tab = this.mustTab(opts.tabId);
      page = await this.session.page(tab);
    } else {
      const windowId = opts.windowId ?? store.currentTab()?.window_id ?? DEFAULT_WINDOW_ID;
      await this.session.connected();
      tab = store.addTab(windowId, opts.url, null);
      page = await this.session.newPage(tab.id).catch(async (err) => {
        store.removeTab(tab.id);
        throw err;
      });
    }
    let loaded = false;
    try {
      await this.navigate(page, opts.url, opts.waitUntilLoaded);
      loaded = true;
      const front = opts.active || !store.tabs().some((t) => t.window_id === tab.window_id && t.active);
      if (front) store.activate(tab.id);
      // Independent round trips, waited for together.
      const [view] = await Promise.all([
        this.view(store.tab(tab.id)!, page),
        front ? page.bringToFront() : null,
      ]);
      return view;
    } catch (err) {
      const refusal = this.session.takeRefusal(tab.id);
      const closedUnder = page.isClosed() || TRANSIENT.test((err as Error).message ?? "");
      if (isNew && (closedUnder || !loaded)) {
        await this.session.closePage(tab.id);
        store.removeTab(tab.id);
      }
      if (refusal) throw new BrowserError("navigation_refused", refusal);
      if (isNew && retry && closedUnder) return this.open(opts, false);
      if (loaded) throw err;
      throw new BrowserError("navigation_failed", `Could not load ${opts.url}: ${(err as Error).message}`);
    }
  }

  /** Closes a tab; its window's newest remaining tab becomes active. */
  async close(id: number): Promise<TabView> {
    const tab = this.mustTab(id);
    if (this.session.store.sessionId()) await this.session.connected(); // maps pages after a restart
    await this.session.closePage(id);
    this.session.store.removeTab(id);
    this.session.store.repairActive(tab.window_id);
    this.changed();
    return { id, window_id: tab.window_id, url: tab.url, title: tab.title, active: false, loading: false };
  }

  /** Makes a tab the active one of its window and focuses the window. */
  async activate(id: number): Promise<TabView> {
    const tab = this.mustTab(id);
    const page = await this.session.page(tab);
    this.session.store.activate(id);
    await page.bringToFront();
    return this.view(this.session.store.tab(id)!, page);
  }

  /** The tabs matching a filter; an invalid regex is a clear error. */
  async list(filter: TabFilter): Promise<TabView[]> {
    const urlRe = pattern("url_pattern", filter.url_pattern);
    const titleRe = pattern("title_pattern", filter.title_pattern);
    const out: TabView[] = [];
    for (const tab of this.session.store.tabs()) {
      if (filter.window_id !== undefined && tab.window_id !== filter.window_id) continue;
      if (filter.active !== undefined && tab.active !== filter.active) continue;
      const page = await this.session.page(tab);
      const facts = await this.facts(page, tab);
      const view = this.record(tab, page, facts);
      if (urlRe && !urlRe.test(view.url)) continue;
      if (titleRe && !titleRe.test(view.title)) continue;
      if (filter.audible !== undefined && facts.audible !== filter.audible) continue;
      out.push(view);
    }
    this.changed();
    return out;
  }

  /** A tab's current view, read from its page. */
  async view(tab: TabRecord, page: Page): Promise<TabView> {
    const view = this.record(tab, page, await this.facts(page, tab));
    this.changed();
    return view;
  }

  /** Publishes the tab list (called after every browser tool). */
  changed(): void {
    this.onChange(this.session.store.tabs());
  }

  private record(tab: TabRecord, page: Page, facts: PageFacts): TabView {
    const url = page.url() || tab.url;
    this.session.store.updateTab(tab.id, { url, title: facts.title });
    return {
      id: tab.id,
      window_id: tab.window_id,
      url,
      title: facts.title,
      active: tab.active,
      loading: facts.loading,
    };
  }

  private async navigate(page: Page, url: string, wait: boolean): Promise<void> {
    if (wait) {
      await page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
      return;
    }
    const cdp = await this.session.cdp(page);
    const res = await cdp.send("Page.navigate", { url });
    if (res.errorText) throw new Error(res.errorText);
  }

  private async facts(page: Page, tab: TabRecord): Promise<PageFacts> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fallback: PageFacts = { title: tab.title, loading: true, audible: false };
    const timeout = new Promise<PageFacts>((resolve) => {
      timer = setTimeout(() => resolve(fallback), FACTS_TIMEOUT_MS);
    });
    const read = page.evaluate(TAB_FACTS_SCRIPT).then(
      (f) => f as PageFacts,
      () => fallback,
    );
    const facts = await Promise.race([read, timeout]);
    clearTimeout(timer);
    return facts;
  }
}

function pattern(name: string, source: string | undefined): RegExp | null {
  if (source === undefined) return null;
  try {
    return new RegExp(source, "i");
  } catch (err) {
    throw new BrowserError(
      "invalid_pattern",
      `${name} is not a valid regular expression: ${(err as Error).message}`,
    );
  }
}
