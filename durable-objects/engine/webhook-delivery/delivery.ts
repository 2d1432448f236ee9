/**
 * Sending one webhook: the URL check (public addresses only, through the SSRF guard), the
 * retry schedule and one POST attempt that never throws and never follows redirects.
 */
import { assertFetchable, blockedHostReason } from "../net/ssrf";

/** Attempts before a delivery is given up. */
export const WEBHOOK_MAX_ATTEMPTS = 6;
/** First retry delay; doubles per attempt (30 s, 1, 2, 4, 8 min). */
export const WEBHOOK_RETRY_BASE_MS = 30_000;
/** Longest wait between attempts. */
export const WEBHOOK_RETRY_MAX_MS = 30 * 60_000;
/** How long one attempt may take. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Why a webhook URL is refused, or null. */
export function webhookUrlProblem(
  raw: string,
  allowPrivateNetwork: boolean,
  field = "webhook_url",
): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${field} "${raw.slice(0, 200)}" is not an absolute URL.`;
  }
  try {
    assertFetchable(url, { allowPrivateNetwork: true });
  } catch (err) {
    return `${field}: ${(err as Error).message}`;
  }
  const blocked = allowPrivateNetwork ? null : blockedHostReason(url.hostname);
  return blocked ? `${field} points to ${blocked}; webhooks are only sent to public addresses.` : null;
}

/** The delay before attempt `attempt + 1` after `attempt` failed ones. */
export function retryDelay(attempt: number, baseMs = WEBHOOK_RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), WEBHOOK_RETRY_MAX_MS);
}

/** How one attempt went. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** POSTs a JSON body with the given headers; a non-2xx answer or a network error is a failed attempt. */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: { "content-type": "application/json", "user-agent": "Cirrus-Webhook/1", ...headers },
      body,
    });
    await res.body?.cancel();
    const durationMs = Date.now() - started;
    if (res.ok) return { ok: true, status: res.status, error: null, durationMs };
    return { ok: false, status: res.status, error: `The receiver answered HTTP ${res.status}.`, durationMs };
  } catch (err) {
    return {
      ok: false,
      status: null,
      error: `The request failed: ${(err as Error).message}`,
      durationMs: Date.now() - started,
    };
  }
}
