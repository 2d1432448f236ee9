/**
 * Launching a browser inside the platform's limits: a 429 (too many browsers, too many new ones
 * a minute, or the day's browser time used up) is retried with back-off, honouring Retry-After,
 * until the deadline; then it is an error that names the limit. Transient failures of a launch
 * (a target closed while it started, a 5xx, a browser not ready in time) are retried the same way.
 */
import puppeteer, { type Browser, type BrowserWorker } from "@cloudflare/puppeteer";
import { BrowserError } from "../../errors";

/** First and longest pause between two launch attempts after a refusal. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** Messages of failures that are worth another attempt (the browser was not ready yet). */
export const TRANSIENT =
  /Requesting main frame too early|Target closed|Session closed|Connection closed|Navigating frame was detached|Execution context was destroyed/i;

/** A launch the platform failed (a 5xx, or the local runtime's browser not ready in time): tried again. */
const LAUNCH_FAILED = /code: 5\d\d|Failed to launch/i;

/** Time, and waiting, as the fleet sees them (a seam for tests). */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The binding with a memory of the last Retry-After it answered with. */
export function observedBinding(binding: BrowserWorker): {
  binding: BrowserWorker;
  retryAfterMs(): number | null;
} {
  let retryAfter: number | null = null;
  const wrapped = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await binding.fetch(input as RequestInfo, init);
      if (res.status === 429) retryAfter = retryAfterMs(res.headers.get("retry-after"));
      return res;
    },
  } as unknown as BrowserWorker;
  return {
    binding: wrapped,
    retryAfterMs: () => {
      const ms = retryAfter;
      retryAfter = null;
      return ms;
    },
  };
}

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/** Whether an error is the platform refusing for a limit (429 or a quota message). */
export function isRefusal(err: unknown): boolean {
  return /code: 429|rate limit|too many|quota|limit exceeded/i.test((err as Error)?.message ?? "");
}

/** Launches a browser, retrying refusals and transient failures until `deadline`. */
export async function launchWithin(
  binding: BrowserWorker,
  keepAliveMs: number,
  deadline: number,
  clock: Clock,
): Promise<Browser> {
  const observed = observedBinding(binding);
  let backoff = FIRST_BACKOFF_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await puppeteer.launch(observed.binding, { keep_alive: keepAliveMs });
    } catch (err) {
      const refused = isRefusal(err);
      const message = (err as Error).message ?? "";
      if (!refused && !TRANSIENT.test(message) && !LAUNCH_FAILED.test(message)) throw err;
      const wait = Math.min(observed.retryAfterMs() ?? backoff, MAX_BACKOFF_MS);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      if (clock.now() + wait > deadline) throw refused ? limitError(err, attempt) : err;
      await clock.sleep(wait);
    }
  }
}

/** The error a persistent refusal ends in: which limit, and what to change. */
function limitError(err: unknown, attempts: number): BrowserError {
  const said = ((err as Error).message ?? "").replace(/^Unable to create new browser: /, "");
  return new BrowserError(
    "browser_limit",
    `Browser Rendering refused a new browser ${attempts} time(s) (${said.slice(0, 200)}): the account's limit of concurrent browsers, of new browsers per minute or of browser time per day is reached. Try again later; on a paid plan raise BROWSER_MAX_SESSIONS (and lower BROWSER_LAUNCH_INTERVAL_MS).`,
  );
}

/** Runs browser work again when it failed transiently (a page not ready yet), up to `attempts` times. */
export async function retryTransient<T>(work: () => Promise<T>, attempts = 3, clock = realClock): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (err) {
      if (i >= attempts || !TRANSIENT.test((err as Error).message ?? "")) throw err;
      await clock.sleep(100 * i);
    }
  }
}

/** How long reconnecting to a kept session after a restart may take. */
const RECONNECT_TIMEOUT_MS = 5_000;
/** A kept session whose old connection the platform has not let go of yet (just after a restart). */
const STILL_IN_USE = /still be in use|not ready yet/i;
/** Attempts to reconnect to it, with a growing pause between (about 11 s in all). */
const RECONNECT_ATTEMPTS = 8;
const RECONNECT_PAUSE_MS = 400;
/** Reconnects to a kept session; while the platform still holds its old connection, tries again. */
export async function reconnectTo(binding: BrowserWorker, sessionId: string): Promise<Browser | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTimeout(puppeteer.connect(binding, sessionId));
    } catch (err) {
      if (attempt >= RECONNECT_ATTEMPTS || !STILL_IN_USE.test((err as Error).message ?? "")) return null;
      await realClock.sleep(RECONNECT_PAUSE_MS * attempt);
    }
  }
}

/** A promise that fails with "timed out" after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms = RECONNECT_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
