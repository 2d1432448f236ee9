/** Downloads a URL for web_fetch: SSRF-guarded redirects, a timeout and a byte cap (streamed, then cut). */
import { NetError } from "../errors";
import { guardedFetch, type NetworkPolicy } from "./ssrf";

/** What web_fetch sends as its User-Agent. */
export const FETCH_USER_AGENT = "Mozilla/5.0 (compatible; CirrusAgent/0.1; +https://github.com/cirrus)";

/** A downloaded body and what is known about it. */
export interface FetchedPage {
  status: number;
  statusText: string;
  finalUrl: string;
  contentType: string | null;
  /** The bytes read (at most the cap; none for binary types, which are not downloaded). */
  bytes: Uint8Array;
  /** Content-Length when given, else the bytes read. */
  size: number;
  /** The cap cut the body short. */
  capped: boolean;
  /** The site's bot protection answered with a challenge (`cf-mitigated: challenge`), not the page. */
  challenged: boolean;
  /** `Retry-After` as the server sent it (seconds or an HTTP date), when it did. */
  retryAfter: string | null;
}

/** Limits of one download. */
export interface FetchLimits {
  timeoutMs: number;
  /** The byte cap for a body of this content type. */
  maxBytes(contentType: string | null): number;
  policy: NetworkPolicy;
  signal: AbortSignal;
  /** Whether a body of this content type should be read at all (binary types are only measured). */
  wantsBody(contentType: string | null): boolean;
}

async function readCapped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; capped: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let capped = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    total += Math.min(value.byteLength, room);
    if (value.byteLength >= room) {
      capped = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, capped };
}

/** Fetches a page; network failures and timeouts become NetErrors the model can read. */
export async function fetchPage(url: string, limits: FetchLimits): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([limits.signal, timeout]);
  try {
    const { response, finalUrl } = await guardedFetch(
      url,
      {
        signal,
        headers: {
          "user-agent": FETCH_USER_AGENT,
          accept: "text/html,application/json,application/pdf,text/*;q=0.9,*/*;q=0.5",
        },
      },
      limits.policy,
    );
    const contentType = response.headers.get("content-type");
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    const wanted = limits.wantsBody(contentType);
    let read: { bytes: Uint8Array; capped: boolean } = { bytes: new Uint8Array(0), capped: false };
    // A binary body is only read when its size is not declared, to measure it.
    if (response.body && (wanted || !Number.isFinite(declared)))
      read = await readCapped(response.body, limits.maxBytes(contentType));
    else await response.body?.cancel();
    return {
      status: response.status,
      statusText: response.statusText,
      finalUrl,
      contentType,
      bytes: wanted ? read.bytes : new Uint8Array(0),
      size: Number.isFinite(declared) ? declared : read.bytes.byteLength,
      capped: read.capped,
      challenged: response.headers.get("cf-mitigated")?.toLowerCase() === "challenge",
      retryAfter: response.headers.get("retry-after"),
    };
  } catch (err) {
    if (err instanceof NetError) throw err;
    if (timeout.aborted && !limits.signal.aborted) {
      throw new NetError("timeout", `${url} did not finish loading within ${limits.timeoutMs / 1000} s.`);
    }
    if (limits.signal.aborted) throw err;
    throw new NetError("fetch_failed", `Could not fetch ${url}: ${(err as Error).message}`);
  }
}
