/**
 * Live view of a tab: one CDP screencast per tab shared by every viewer, streamed as SSE frames
 * {data, width, height, timestamp}. Frames are acknowledged only when the next one may be shown,
 * so Chromium itself never produces more than `maxFps`; a slow viewer skips frames instead of
 * queueing them; the screencast stops when the last viewer leaves.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { LiveFrame } from "../../../schemas/browser-api";
import { jpegSize } from "./jpeg-size";

/** JPEG quality of the screencast (0-100). */
export const LIVE_JPEG_QUALITY = 60;
/** Largest frame Chromium is asked for; larger viewports are scaled down. */
export const LIVE_MAX_WIDTH = 1600;
export const LIVE_MAX_HEIGHT = 1200;
/** Frames a viewer may have unread before it starts skipping. */
const VIEWER_QUEUE_FRAMES = 2;

/** How the last frame maps onto the page: input coordinates are in frame pixels. */
export interface FrameGeometry {
  width: number;
  height: number;
  /** The viewport in CSS pixels that the frame shows. */
  cssWidth: number;
  cssHeight: number;
}

/** Settings of the live views. */
export interface LiveViewOptions {
  maxFps: number;
  heartbeatMs: number;
}

interface ScreencastFrameEvent {
  data: string;
  sessionId: number;
  metadata: { deviceWidth: number; deviceHeight: number; timestamp?: number };
}

interface Viewer {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** A frame was skipped because the viewer was behind: send the latest when it catches up. */
  behind: boolean;
  heartbeat: ReturnType<typeof setInterval>;
}

const encoder = new TextEncoder();
const sseFrame = (frame: LiveFrame) => encoder.encode(`data: ${JSON.stringify(frame)}\n\n`);

/** One tab's screencast and its viewers. */
class Screencast {
  readonly viewers = new Set<Viewer>();
  last: LiveFrame | null = null;
  geometry: FrameGeometry | null = null;
  private latest: ScreencastFrameEvent | null = null;
  private unacked: number[] = [];
  private lastEmit = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly onFrame = (f: ScreencastFrameEvent) => this.frame(f);
  private readonly onClose = () => this.end();

  constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly minIntervalMs: number,
    private readonly onEnd: () => void,
  ) {}

  async start(): Promise<void> {
    this.cdp.on("Page.screencastFrame", this.onFrame);
    this.page.once("close", this.onClose);
    await this.cdp.send("Page.startScreencast", {
      format: "jpeg",
      quality: LIVE_JPEG_QUALITY,
      maxWidth: LIVE_MAX_WIDTH,
      maxHeight: LIVE_MAX_HEIGHT,
      everyNthFrame: 1,
    });
  }

  /** Stops the screencast (last viewer gone, or the tab closed). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.cdp.off("Page.screencastFrame", this.onFrame);
    this.page.off("close", this.onClose);
    this.cdp
      .send("Page.stopScreencast")
      .then(() => this.cdp.detach())
      .catch(() => {});
    this.onEnd();
  }

  private frame(f: ScreencastFrameEvent): void {
    this.latest = f;
    this.unacked.push(f.sessionId);
    if (this.timer) return;
    const wait = Math.max(0, this.lastEmit + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends the newest frame, then lets Chromium draw the next one. */
  private flush(): void {
    this.timer = null;
    const f = this.latest;
    this.latest = null;
    if (!f || this.stopped) return;
    this.lastEmit = Date.now();
    const size = jpegSize(f.data);
    this.geometry = {
      width: size.width,
      height: size.height,
      cssWidth: f.metadata.deviceWidth,
      cssHeight: f.metadata.deviceHeight,
    };
    const ts = f.metadata.timestamp;
    this.last = {
      data: f.data,
      width: size.width,
      height: size.height,
      timestamp: ts ? Math.round(ts * 1000) : Date.now(),
    };
    const bytes = sseFrame(this.last);
    for (const v of this.viewers) send(v, bytes);
    for (const sessionId of this.unacked.splice(0))
      this.cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => {});
  }

  /** The tab closed: every viewer's stream ends. */
  private end(): void {
    for (const v of this.viewers) {
      clearInterval(v.heartbeat);
      try {
        v.controller.close();
      } catch {
        // already closed
      }
    }
    this.viewers.clear();
    this.stop();
  }
}

function send(v: Viewer, bytes: Uint8Array): void {
  if ((v.controller.desiredSize ?? 0) <= 0) {
    v.behind = true;
    return;
  }
  v.behind = false;
  try {
    v.controller.enqueue(bytes);
  } catch {
    // the viewer left; its cancel removes it
  }
}

/** The live views of one conversation's tabs. */
export class LiveViews {
  private readonly casts = new Map<number, Screencast>();
  private readonly starting = new Map<number, Promise<Screencast>>();

  constructor(private readonly options: LiveViewOptions) {}

  /** The geometry of a tab's last frame, when it has a live view. */
  geometry(tabId: number): FrameGeometry | null {
    return this.casts.get(tabId)?.geometry ?? null;
  }

  /** How many viewers watch the tabs now. */
  viewers(): number {
    let n = 0;
    for (const cast of this.casts.values()) n += cast.viewers.size;
    return n;
  }

  /** An SSE body of a tab's frames; `open` gives the tab's page and a CDP session on it. */
  async stream(
    tabId: number,
    open: () => Promise<{ page: Page; cdp: CDPSession }>,
  ): Promise<ReadableStream<Uint8Array>> {
    const cast = await this.screencast(tabId, open);
    let viewer: Viewer | null = null;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          controller.enqueue(encoder.encode(": live\n\n"));
          viewer = {
            controller,
            behind: false,
            heartbeat: setInterval(() => {
              try {
                controller.enqueue(encoder.encode(": heartbeat\n\n"));
              } catch {
                // closed
              }
            }, this.options.heartbeatMs),
          };
          cast.viewers.add(viewer);
          if (cast.last) send(viewer, sseFrame(cast.last));
        },
        pull: () => {
          if (viewer?.behind && cast.last) send(viewer, sseFrame(cast.last));
        },
        cancel: () => {
          if (!viewer) return;
          clearInterval(viewer.heartbeat);
          cast.viewers.delete(viewer);
          if (cast.viewers.size === 0) cast.stop();
        },
      },
      { highWaterMark: VIEWER_QUEUE_FRAMES },
    );
  }

  /** Stops every screencast (the browser is closing). */
  stopAll(): void {
    for (const cast of this.casts.values()) cast.stop();
  }

  private async screencast(
    tabId: number,
    open: () => Promise<{ page: Page; cdp: CDPSession }>,
  ): Promise<Screencast> {
    const existing = this.casts.get(tabId);
    if (existing) return existing;
    const pending = this.starting.get(tabId);
    if (pending) return pending;
    const started = (async () => {
      const { page, cdp } = await open();
      const interval = 1000 / Math.max(1, this.options.maxFps);
      const cast = new Screencast(page, cdp, interval, () => {
        if (this.casts.get(tabId) === cast) this.casts.delete(tabId);
      });
      this.casts.set(tabId, cast);
      await cast.start();
      return cast;
    })().finally(() => this.starting.delete(tabId));
    this.starting.set(tabId, started);
    return started;
  }
}
