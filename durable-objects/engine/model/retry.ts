/** Backoff for model calls: exponential with jitter, honouring Retry-After within a bound. */

/** How hard to retry a failing model call. */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** No single wait is longer than this, whatever Retry-After asks for. */
  maxDelayMs: number;
}

/** Parses Retry-After (seconds or HTTP date) or retry-after-ms into milliseconds. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry number `attempt` (1 = first retry). */
export function retryDelayMs(attempt: number, retryAfterMs: number | null, policy: RetryPolicy): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = Math.random() * policy.baseDelayMs;
  return Math.min(exp + jitter, policy.maxDelayMs);
}

/** Whether an HTTP status is worth retrying. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Sleeps unless the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
