/**
 * Recording of a conversation's browser: one {@link TabRecorder} per page the browser tracks
 * (tabs the agent opens, pages reopened after a rebuild), flushed after every browser operation
 * and when a tab closes. The browser calls it from its per-page hook; nothing here knows where
 * the browser lives.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { RecordingSink } from "./recording-store";
import { TabRecorder } from "./tab-recorder";

/** A new recording id: time first (base 36), so R2 lists recordings in the order they began. */
export const newRecordingId = (now: number) =>
  `rec_${now.toString(36)}_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;

/** The recorders of one conversation's pages. */
export class BrowserRecording {
  private readonly recorders = new Map<number, TabRecorder>();
  /** Takes typed secrets out of events before they are stored (set by the browser that types them). */
  redact: ((json: string) => Promise<string>) | undefined;

  constructor(
    private readonly sink: RecordingSink,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts recording a page tracked under `tabId` (a page replacing another starts a new recording). */
  async attach(tabId: number, page: Page, cdp: CDPSession): Promise<void> {
    await this.detach(tabId);
    const recorder = new TabRecorder(cdp, this.sink, {
      recordingId: newRecordingId(this.now()),
      tabId,
      url: page.url(),
      maxBytes: this.maxBytes,
      now: this.now,
      redact: (json) => this.redact?.(json) ?? Promise.resolve(json),
    });
    this.recorders.set(tabId, recorder);
    try {
      await recorder.attach();
    } catch (err) {
      this.recorders.delete(tabId);
      console.warn("recording could not start on tab", tabId, (err as Error).message);
    }
  }

  /** Stops recording a tab and writes what it holds. */
  async detach(tabId: number): Promise<void> {
    const recorder = this.recorders.get(tabId);
    this.recorders.delete(tabId);
    await recorder?.detach();
  }

  /** Writes every tab's buffered events (after a browser operation). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((r) => r.flush()));
  }

  /** Stops every recorder (the browser is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.recorders.keys()].map((id) => this.detach(id)));
  }
}
