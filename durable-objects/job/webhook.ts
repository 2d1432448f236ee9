/**
 * Job webhooks: a signed JSON summary POSTed when a run ends, retried with exponential backoff.
 * Each delivery is signed twice: in the Standard Webhooks format (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), and with the scheme HTTP tools use
 * (`X-Cirrus-Signature: t=<unix>,v1=<hex>` over "<t>.<body>") for receivers written before.
 */
import type { WebhookDelivery } from "../../schemas/jobs";
import { signatureHeader } from "../engine/custom-tools/http-tool";
import {
  postWebhook,
  retryDelay,
  WEBHOOK_MAX_ATTEMPTS,
  webhookUrlProblem,
} from "../engine/webhook-delivery/delivery";
import { standardHeaders } from "../engine/webhook-delivery/signing";

export {
  retryDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_BASE_MS,
  WEBHOOK_RETRY_MAX_MS,
  WEBHOOK_TIMEOUT_MS,
  webhookUrlProblem,
} from "../engine/webhook-delivery/delivery";

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
    citations_unverified: number | null;
    grades_passed: number | null;
    grades_total: number | null;
  };
  status: string;
  result_path: string | null;
  excerpt: string | null;
  error: { code: string; message: string } | null;
}

/** A short excerpt of a result for the summary. */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
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
  const result = await postWebhook(opts.url, body, {
    "x-cirrus-event": opts.payload.type,
    "x-cirrus-delivery": opts.deliveryId,
    "x-cirrus-signature": await signatureHeader(opts.secret, Math.floor(Date.now() / 1000), body),
    ...(await standardHeaders(opts.secret, opts.deliveryId, body)),
  });
  if (result.ok)
    return {
      status: "delivered",
      attempts,
      last_status: result.status,
      last_error: null,
      next_attempt_at: null,
      delivered_at: opts.now,
    };
  const giveUp = attempts >= WEBHOOK_MAX_ATTEMPTS;
  return {
    status: giveUp ? "failed" : "pending",
    attempts,
    last_status: result.status,
    last_error: result.error,
    next_attempt_at: giveUp ? null : opts.now + retryDelay(attempts, opts.retryBaseMs),
    delivered_at: null,
  };
}
