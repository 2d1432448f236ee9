/**
 * Downloads: a document response the browser would save rather than show (sent as an attachment,
 * or of a type no page renders) is read through CDP as it arrives — after the request guard let it
 * through, so the SSRF rules and allowed_domains applied to where it came from — stopped in the
 * browser, and handed to the conversation of the tool call that caused it, which saves it into
 * its workspace files under `downloads/` — within a size cap and a count per run. A download
 * while no tool call runs (a person's click in the live view or a take-over, or the page on its
 * own) goes to the conversation the same way, within the same size cap and at most the same count
 * between two tool calls; it is announced by its event only (no tool call is there to tell).
 */
import type { PausedRequest, SendCommand } from "./request-guard";

/** Bytes read from the browser per CDP message (well under a WebSocket message's limit). */
const READ_CHUNK_BYTES = 256 * 1024;
/** Types a browser shows as a page (anything else arriving as a document is downloaded). */
const RENDERED =
  /^(text\/(?!csv|comma-separated|tab-separated)|image\/|audio\/|video\/|application\/(json|xml|xhtml\+xml|javascript|pdf|rss\+xml|atom\+xml)$|[^;]*\+(xml|json)$)/i;

/** A file a page made the browser download, as the tool result and the CUSTOM event tell it. */
export interface DownloadedFile {
  path: string;
  size: number;
  content_type: string;
  url: string;
}

/** A download that was refused (too large, too many), as the tool result tells it. */
export interface RefusedDownload {
  url: string;
  refused: string;
}

/** A caught download, as handed to the conversation. */
export interface CaughtDownload {
  /** The file name the server gave, else the URL's last segment (cleaned). */
  name: string;
  bytes: Uint8Array;
  contentType: string;
  url: string;
}

/** Where one tool call's downloads go: saved under `downloads/` (name kept, made unique), announced; returns the path. */
export type DownloadSink = (file: CaughtDownload) => Promise<string>;

/** Caps on downloads. */
export interface DownloadLimits {
  maxBytes: number;
  maxPerRun: number;
}

const header = (p: PausedRequest, name: string) =>
  p.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value ?? null;

/** Whether a paused response is one the browser would download instead of showing. */
export function isDownload(p: PausedRequest): boolean {
  const status = p.responseStatusCode ?? 0;
  if (p.resourceType !== "Document" || status < 200 || status >= 300 || status === 204) return false;
  if (/^\s*attachment/i.test(header(p, "content-disposition") ?? "")) return true;
  const type = (header(p, "content-type") ?? "").split(";")[0].trim();
  return type !== "" && !RENDERED.test(type);
}

/** The file name a download is saved under: the one the server gave, else the URL's last segment. */
export function downloadName(p: PausedRequest): string {
  const disposition = header(p, "content-disposition") ?? "";
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)?.[1];
  let name = "";
  try {
    name = star
      ? decodeURIComponent(star)
      : (plain ?? decodeURIComponent(new URL(p.request.url).pathname.split("/").pop() ?? ""));
  } catch {
    name = plain ?? "";
  }
  const clean = [...name]
    .map((c) => (c === "/" || c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? "_" : c))
    .join("")
    .replace(/^\.+/, "")
    .trim()
    .slice(-120);
  return clean || "download";
}

/** Catches the downloads of one browser and reports them to the tool call that caused them. */
export class DownloadCatcher {
  private readonly pending = new Set<Promise<void>>();
  private done: (DownloadedFile | RefusedDownload)[] = [];
  private run: string | null = null;
  private countInRun = 0;
  private sink: DownloadSink | null = null;
  /** Downloads saved outside tool calls since the last call began. */
  private countOutside = 0;

  /** `outside`: where downloads go while no tool call runs (none: they are refused). */
  constructor(
    private readonly limits: DownloadLimits,
    private readonly outside: DownloadSink | null = null,
  ) {}

  /** A tool call of a run (null: a direct call) starts: its downloads go to `sink` (counted per run). */
  beginCall(runId: string | null, sink: DownloadSink | null): void {
    const key = runId ?? "direct";
    if (key !== this.run) this.countInRun = 0;
    this.run = key;
    this.sink = sink;
    this.countOutside = 0;
  }

  /** The tool call ended: later downloads have nowhere to go until the next one. */
  endCall(): void {
    this.sink = null;
  }

  /** The guard's response handler: true when the response was a download (and is now stopped). */
  readonly handle = async (paused: PausedRequest, send: SendCommand): Promise<boolean> => {
    if (!isDownload(paused)) return false;
    const work = this.capture(paused, send).catch((err: unknown) => {
      this.done.push({ url: paused.request.url, refused: `could not be saved: ${(err as Error).message}` });
    });
    this.pending.add(work);
    await work;
    this.pending.delete(work);
    return true;
  };

  /** Waits for the downloads under way, then hands over (and forgets) what came of them. */
  async settled(): Promise<(DownloadedFile | RefusedDownload)[]> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    const done = this.done;
    this.done = [];
    return done;
  }

  private async capture(p: PausedRequest, send: SendCommand): Promise<void> {
    const stop = () => send("Fetch.failRequest", { requestId: p.requestId, errorReason: "Aborted" });
    const url = p.request.url;
    const declared = Number(header(p, "content-length") ?? Number.NaN);
    const refuse = async (why: string, stopped = false) => {
      this.done.push({ url, refused: why });
      if (!stopped) await stop();
    };
    const inCall = this.sink !== null;
    const sink = this.sink ?? this.outside;
    if (!sink) return refuse("no tool call was running to save it (downloads are saved during a tool call)");
    const max = this.limits.maxPerRun;
    if ((inCall ? this.countInRun : this.countOutside) >= max) {
      return refuse(
        inCall
          ? `this run already saved ${max} downloads (the limit per run)`
          : `${max} downloads were already saved since the last tool call (the limit outside tool calls)`,
      );
    }
    if (declared > this.limits.maxBytes)
      return refuse(`it is ${declared} bytes, over the ${this.limits.maxBytes}-byte limit`);
    if (inCall) this.countInRun++;
    else this.countOutside++;
    let bytes: Uint8Array | null;
    try {
      bytes = await this.read(p.requestId, send);
    } finally {
      await stop().catch(() => {});
    }
    if (!bytes) return refuse(`it is over the ${this.limits.maxBytes}-byte limit`, true);
    const contentType = (header(p, "content-type") ?? "application/octet-stream").split(";")[0].trim();
    const path = await sink({ name: downloadName(p), bytes, contentType, url });
    this.done.push({ path, size: bytes.byteLength, content_type: contentType, url });
  }

  /** The response body, read in chunks; null when it passes the size cap. */
  private async read(requestId: string, send: SendCommand): Promise<Uint8Array | null> {
    const { stream } = (await send("Fetch.takeResponseBodyAsStream", { requestId })) as { stream: string };
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const r = (await send("IO.read", { handle: stream, size: READ_CHUNK_BYTES })) as {
          data: string;
          base64Encoded?: boolean;
          eof: boolean;
        };
        const chunk = r.base64Encoded
          ? Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0))
          : new TextEncoder().encode(r.data);
        total += chunk.byteLength;
        if (total > this.limits.maxBytes) return null;
        chunks.push(chunk);
        if (r.eof) break;
      }
    } finally {
      await send("IO.close", { handle: stream }).catch(() => {});
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}
