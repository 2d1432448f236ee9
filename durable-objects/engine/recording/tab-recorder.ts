/**
 * Records one tab: installs the recorder (./recorder-script.ts) for every new document of the
 * page and in the current one, receives its batches over the CDP binding, and hands them to a
 * {@link RecordingSink} in chunks. Bounded: a recording past `maxBytes` stops taking events and
 * says so (`truncated`), never silently.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { RECORDER_BINDING, RECORDER_WORLD, recorderScript } from "./recorder-script";
import type { RecordingChunk, RecordingSink } from "./recording-store";

/** When the buffered events are written out: this many bytes, or this long after they arrived. */
const CHUNK_BYTES = 256 * 1024;
const CHUNK_AGE_MS = 2_000;

/** What a recorder needs to know about its tab. */
export interface TabRecorderOptions {
  recordingId: string;
  tabId: number;
  /** The tab's URL when recording starts. */
  url: string;
  /** Largest recording kept, in bytes of events. */
  maxBytes: number;
  /** Takes typed secrets out of a chunk's JSON before it is stored (a page may echo them as text). */
  redact?: (json: string) => Promise<string>;
  now?: () => number;
}

interface BindingCall {
  name: string;
  payload: string;
}

/** The recorder of one tab, attached to its page's CDP session. */
export class TabRecorder {
  private buffer: unknown[] = [];
  private bufferBytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private totalBytes = 0;
  private truncated = false;
  /** Whether the store has been told about the truncation (it may come with no events to write). */
  private truncationWritten = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly startedAt: number;
  private readonly now: () => number;
  private listener: ((call: BindingCall) => void) | null = null;
  /** The tab's URL at start: the first page it shows when it starts blank. */
  private url: string;

  constructor(
    private readonly cdp: CDPSession,
    private readonly sink: RecordingSink,
    private readonly options: TabRecorderOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.url = options.url;
    this.startedAt = this.now();
  }

  /** Starts recording: new documents of the page and the one open now. */
  async attach(): Promise<void> {
    this.listener = (call) => this.receive(call);
    this.cdp.on("Runtime.bindingCalled", this.listener);
    // Binding calls are reported only to a session with the Runtime domain on.
    await this.cdp.send("Runtime.enable");
    await this.cdp.send("Page.enable");
    await this.cdp.send("Runtime.addBinding", {
      name: RECORDER_BINDING,
      executionContextName: RECORDER_WORLD,
    } as { name: string });
    const source = recorderScript();
    await this.cdp.send("Page.addScriptToEvaluateOnNewDocument", {
      source,
      worldName: RECORDER_WORLD,
    });
    const { frameTree } = (await this.cdp.send("Page.getFrameTree")) as {
      frameTree: { frame: { id: string } };
    };
    const world = (await this.cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName: RECORDER_WORLD,
    })) as { executionContextId: number };
    await this.cdp.send("Runtime.evaluate", { expression: source, contextId: world.executionContextId });
    await this.sink.start(this.meta());
  }

  /** Writes what is buffered (after each tool call, on close). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0 && this.truncated === this.truncationWritten) return this.writing;
    this.truncationWritten = this.truncated;
    const events = this.buffer;
    const bytes = this.bufferBytes;
    this.buffer = [];
    this.bufferBytes = 0;
    const meta = this.meta();
    const redact = this.options.redact;
    const write = async () => {
      const chunk: RecordingChunk = redact
        ? { events: JSON.parse(await redact(JSON.stringify(events))) as unknown[], bytes }
        : { events, bytes };
      await this.sink.append(meta, chunk);
    };
    this.writing = this.writing.then(write).catch((err) => {
      console.warn("recording chunk not written", (err as Error).message);
    });
    return this.writing;
  }

  /** Stops recording this tab and writes the rest. */
  async detach(): Promise<void> {
    if (this.listener) this.cdp.off("Runtime.bindingCalled", this.listener);
    this.listener = null;
    await this.flush();
  }

  private receive(call: BindingCall): void {
    if (call.name !== RECORDER_BINDING || this.truncated) return;
    const bytes = call.payload.length;
    if (this.totalBytes + bytes > this.options.maxBytes) {
      this.truncated = true;
      void this.flush();
      return;
    }
    let events: unknown;
    try {
      events = JSON.parse(call.payload);
    } catch {
      return;
    }
    if (!Array.isArray(events)) return;
    if (!/^https?:/i.test(this.url)) this.url = firstPageUrl(events) ?? this.url;
    this.buffer.push(...events);
    this.bufferBytes += bytes;
    this.totalBytes += bytes;
    if (this.bufferBytes >= CHUNK_BYTES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), CHUNK_AGE_MS);
  }

  private meta() {
    return {
      id: this.options.recordingId,
      tab_id: this.options.tabId,
      url: this.url,
      started_at: this.startedAt,
      truncated: this.truncated,
    };
  }
}

/** rrweb's Meta event (type 4) names the page it recorded: the first one's href. */
function firstPageUrl(events: unknown[]): string | null {
  for (const e of events as { type?: number; data?: { href?: unknown } }[])
    if (e?.type === 4 && typeof e.data?.href === "string" && /^https?:/i.test(e.data.href))
      return e.data.href;
  return null;
}
