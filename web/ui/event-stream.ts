/**
 * A conversation's event stream over `fetch` (EventSource cannot send auth headers): resumes
 * with Last-Event-ID after drops, drops duplicates by seq, backs off, honours Retry-After.
 */
import type { CirrusEvent } from "../../schemas/events";
import { readSseStream } from "./sse";

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;
/** No byte (not even a heartbeat) for this long means the connection is dead: reconnect. */
const STALL_MS = 45_000;

/** Connection state shown to people. */
export type StreamStatus = "connecting" | "live" | "reconnecting";

/** What the stream needs and reports. */
export interface EventStreamOptions {
  /** `…/v1/conversations/{id}/events` */
  url: string;
  headers: () => Record<string, string>;
  /** Resume after this seq (0 replays everything). */
  after: number;
  onEvent: (seq: number, event: CirrusEvent) => void;
  onStatus?: (status: StreamStatus) => void;
  /** The server refused for good (401/403/404): the stream stops. */
  onFatal?: (status: number) => void;
}

/** A self-reconnecting SSE reader. */
export class EventStream {
  private lastSeq: number;
  private stopped = false;
  private abort: AbortController | null = null;
  private retryMs = FIRST_RETRY_MS;

  constructor(private readonly opts: EventStreamOptions) {
    this.lastSeq = opts.after;
  }

  /** The last seq delivered. */
  get seq(): number {
    return this.lastSeq;
  }

  /** Starts reading; keeps reconnecting until {@link stop}. */
  start(): void {
    this.loop().catch(() => {});
  }

  /** Stops for good. */
  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  private async loop(): Promise<void> {
    this.opts.onStatus?.("connecting");
    while (!this.stopped) {
      const wait = await this.connectOnce();
      if (this.stopped) return;
      this.opts.onStatus?.("reconnecting");
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** One connection; returns how long to wait before the next. */
  private async connectOnce(): Promise<number> {
    const abort = new AbortController();
    this.abort = abort;
    let lastByte = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - lastByte > STALL_MS) abort.abort();
    }, STALL_MS / 3);
    try {
      const res = await fetch(`${this.opts.url}?after=${this.lastSeq}`, {
        headers: { ...this.opts.headers(), "last-event-id": String(this.lastSeq) },
        signal: abort.signal,
        cache: "no-store",
      });
      if (res.status === 401 || res.status === 403 || res.status === 404) {
        this.stopped = true;
        this.opts.onFatal?.(res.status);
        return 0;
      }
      if (!res.ok || !res.body) return this.backoff(res.headers.get("retry-after"));
      this.opts.onStatus?.("live");
      this.retryMs = FIRST_RETRY_MS;
      await readSseStream(
        res.body,
        (m) => this.deliver(m.id, m.data),
        () => {
          lastByte = Date.now();
        },
      );
    } catch {
      // A drop: resume after the last seq we saw.
    } finally {
      clearInterval(watchdog);
    }
    return this.backoff(null);
  }

  private deliver(id: number | null, data: string): void {
    if (id === null || id <= this.lastSeq) return;
    let event: CirrusEvent;
    try {
      event = JSON.parse(data) as CirrusEvent;
    } catch {
      return;
    }
    this.lastSeq = id;
    try {
      this.opts.onEvent(id, event);
    } catch {
      // A rendering bug must not stop the stream (or reach the host page).
    }
  }

  private backoff(retryAfter: string | null): number {
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    return wait;
  }
}
