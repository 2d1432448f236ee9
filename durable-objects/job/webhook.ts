/**
 * Job webhooks: a signed JSON summary POSTed when a run ends, retried with exponential backoff.
 * The signature is the one HTTP tools use (`X-Cirrus-Signature: t=<unix>,v1=<hex>` over
 * "<t>.<body>"), so one receiver can check both and reject replays by the timestamp.
 */
import type { WebhookDelivery } from "../../shared/jobs";
import { signatureHeader } from "../engine/custom-tools/http-tool";
import { assertFetchable, blockedHostReason } from "../engine/net/ssrf";

/** Attempts before a delivery is given up. */
export const WEBHOOK_MAX_ATTEMPTS = 6;
/** First retry delay; doubles per attempt (30 s, 1 min, 2 min, 4 min, 8 min). */
export const WEBHOOK_RETRY_BASE_MS = 30_000;
/** Longest wait between attempts. */
export const WEBHOOK_RETRY_MAX_MS = 30 * 60_000;
/** How long one attempt may take. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Characters of the result quoted in the summary. */
export const EXCERPT_CHARS = 500;

/** What a receiver is told about a finished run. */
export interface WebhookPayload {
  type: string;
  job: { id: string; name: string };
  run: {
    id: string;
    number: number;
    trigger: string;
    scheduled_at: number;
    started_at: number | null;
    ended_at: number | null;
    conversation_id: string | null;
    tokens: unknown;
  };
  status: string;
  result_path: string | null;
  excerpt: string | null;
  error: { code: string; message: string } | null;
}

/** Why a webhook URL is refused, or null. */
export function webhookUrlProblem(raw: string, allowPrivateNetwork: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `webhook_url "${raw.slice(0, 200)}" is not an absolute URL.`;
  }
  try {
    assertFetchable(url, { allowPrivateNetwork: true });
  } catch (err) {
    return `webhook_url: ${(err as Error).message}`;
  }
  const blocked = allowPrivateNetwork ? null : blockedHostReason(url.hostname);
  return blocked ? `webhook_url points to ${blocked}; webhooks are only sent to public addresses.` : null;
}

/** A short excerpt of a result for the summary. */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

/** The delay before attempt `attempt + 1` after `attempt` failed ones. */
export function retryDelay(attempt: number, baseMs = WEBHOOK_RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), WEBHOOK_RETRY_MAX_MS);
}

/** A delivery waiting for its first attempt. */
export function pendingDelivery(now: number): WebhookDelivery {
  return {
    status: "pending",
    attempts: 0,
    last_status: null,
    last_error: null,
    next_attempt_at: now,
    delivered_at: null,
  };
}

/** One delivery attempt; returns the delivery state after it. */
export async function attemptDelivery(opts: {
  url: string;
  secret: string;
  payload: WebhookPayload;
  delivery: WebhookDelivery;
  now: number;
  allowPrivateNetwork: boolean;
  retryBaseMs: number;
  deliveryId: string;
}): Promise<WebhookDelivery> {
  const attempts = opts.delivery.attempts + 1;
  const problem = webhookUrlProblem(opts.url, opts.allowPrivateNetwork);
  if (problem)
    return { ...opts.delivery, status: "failed", attempts, last_error: problem, next_attempt_at: null };
  const body = JSON.stringify(opts.payload);
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(opts.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": "Cirrus-Webhook/1",
        "x-cirrus-event": opts.payload.type,
        "x-cirrus-delivery": opts.deliveryId,
        "x-cirrus-signature": await signatureHeader(opts.secret, Math.floor(Date.now() / 1000), body),
      },
      body,
    });
    status = res.status;
    await res.body?.cancel();
    if (res.ok)
      return {
        status: "delivered",
        attempts,
        last_status: status,
        last_error: null,
        next_attempt_at: null,
        delivered_at: opts.now,
      };
    error = `The receiver answered HTTP ${status}.`;
  } catch (err) {
    error = `The request failed: ${(err as Error).message}`;
  }
  const giveUp = attempts >= WEBHOOK_MAX_ATTEMPTS;
  return {
    status: giveUp ? "failed" : "pending",
    attempts,
    last_status: status,
    last_error: error,
    next_attempt_at: giveUp ? null : opts.now + retryDelay(attempts, opts.retryBaseMs),
    delivered_at: null,
  };
}
