/**
 * The live view's controls on a conversation's browser (./conversation-browser.ts): a tab's live
 * frames, its current URL and title for a take-over's end, a person's input forwarded to it, and
 * its screenshot.
 */
import type { BrowserInput } from "../../../schemas/browser-api";
import type { BrowserSession } from "./browser-session";
import type { CallQueue } from "./call-queue";
import type { LiveViews } from "./live-view";
import { dispatchInput, inputGeometry } from "./remote-input";
import type { TabManager } from "./tab-manager";
import type { TabStore } from "./tab-store";

/** How long a take-over's end waits for the tab's live URL and title before using the stored ones. */
const FACTS_WAIT_MS = 3_000;

/** What the controls reach of the conversation's browser. */
export interface LiveControlParts {
  store: TabStore;
  session: BrowserSession;
  tabs: TabManager;
  views: LiveViews;
  /** The browser's calls, one at a time. */
  calls: CallQueue;
}

/** The live view's controls on the tabs of one conversation's browser. */
export class LiveControls {
  constructor(private readonly p: LiveControlParts) {}

  /** A tab's live frames as an SSE body, or null when the tab does not exist. */
  async live(tabId: number): Promise<ReadableStream<Uint8Array> | null> {
    const tab = this.p.store.tab(tabId);
    if (!tab) return null;
    this.p.store.touch();
    return this.p.views.stream(tabId, async () => {
      const page = await this.p.session.page(tab);
      // A CDP session of its own, so the screencast's events never mix with the tools' session.
      return { page, cdp: await page.createCDPSession() };
    });
  }

  /** A tab's current URL and title (read from its page, else as last stored), or null when it is gone. */
  async tabFacts(tabId: number): Promise<{ url: string; title: string } | null> {
    const tab = this.p.store.tab(tabId);
    if (!tab) return null;
    const stored = { url: tab.url, title: tab.title };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof stored>((resolve) => {
      timer = setTimeout(() => resolve(stored), FACTS_WAIT_MS);
    });
    const read = this.p.calls
      .run(async () => this.p.tabs.view(tab, await this.p.session.page(tab)))
      .then(
        (view) => ({ url: view.url, title: view.title }),
        () => stored,
      );
    const facts = await Promise.race([read, late]);
    clearTimeout(timer);
    return facts;
  }

  /** Forwards a person's input to a tab; false when the tab does not exist. Throws InputRefused. */
  async input(tabId: number, input: BrowserInput): Promise<boolean> {
    const tab = this.p.store.tab(tabId);
    if (!tab) return false;
    const page = await this.p.session.page(tab);
    await dispatchInput(page, input, await inputGeometry(page, this.p.views.geometry(tabId)));
    this.p.store.touch();
    return true;
  }

  /** A tab's page for the live view's screenshot, or null when the tab does not exist. */
  async screenshot(tabId: number): Promise<Uint8Array | null> {
    const tab = this.p.store.tab(tabId);
    if (!tab) return null;
    const page = await this.p.session.page(tab);
    return (await page.screenshot({ type: "png" })) as Uint8Array;
  }
}
