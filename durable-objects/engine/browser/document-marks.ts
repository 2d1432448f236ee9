/**
 * Marks on the document a tab shows (./conversation-browser.ts): `secret` when a secret was typed
 * into it (execute_script refuses it), `script` when a script of the model's ran in it (type_secret
 * refuses it). A navigation makes a new document, which carries no mark.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { TabRecord, TabStore } from "./tab-store";

/** What a document may be marked with. */
export type DocumentMark = "secret" | "script";

/** The marks of the documents a conversation's tabs show, kept in its tab store. */
export class DocumentMarks {
  constructor(
    private readonly store: TabStore,
    private readonly cdp: (page: Page) => Promise<CDPSession>,
  ) {}

  /** Marks the tab's current document. */
  async mark(tab: TabRecord, page: Page, mark: DocumentMark): Promise<void> {
    this.store.markDocument(tab.id, mark, await this.documentId(page));
  }

  /** Whether the tab's current document carries the mark. */
  async marked(tab: TabRecord, page: Page, mark: DocumentMark): Promise<boolean> {
    const marked = this.store.markedDocument(tab.id, mark);
    return marked !== null && marked === (await this.documentId(page));
  }

  /** The id of the document a tab shows now (its main frame's loader: a new one per navigation). */
  private async documentId(page: Page): Promise<string> {
    const { frameTree } = await (await this.cdp(page)).send("Page.getFrameTree");
    return frameTree.frame.loaderId;
  }
}
