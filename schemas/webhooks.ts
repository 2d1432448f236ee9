/**
 * Run webhooks: endpoints a workspace registers, the events they receive, the body of each
 * event and the delivery log — one zod schema each for validation, the objects and OpenAPI.
 */
import { z } from "@hono/zod-openapi";
import { cursorPageOf } from "./page";

/** Events a webhook endpoint can subscribe to. */
export const WebhookEventType = z
  .enum([
    "run.succeeded",
    "run.failed",
    "run.cancelled",
    "question.asked",
    "approval.requested",
    "takeover.requested",
    "job.run.succeeded",
    "job.run.failed",
  ])
  .openapi({ description: "An event a webhook endpoint receives.", example: "run.succeeded" });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const CreateWebhook = z
  .strictObject({
    url: z.string().min(1).max(2000).describe("Public http(s) URL that receives the signed events."),
    events: z.array(WebhookEventType).min(1).max(20).describe("The events to receive."),
  })
  .openapi("CreateWebhook");
export type CreateWebhook = z.infer<typeof CreateWebhook>;

export const Webhook = z
  .object({
    id: z.string(),
    object: z.literal("webhook"),
    url: z.string(),
    events: z.array(WebhookEventType),
    created_at: z.number().describe("Epoch milliseconds."),
  })
  .openapi("Webhook");
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z
    .string()
    .describe(
      "`whsec_…`: verifies deliveries in the Standard Webhooks format (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`). Shown once.",
    ),
}).openapi("CreatedWebhook");
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookList = z.object({ data: z.array(Webhook) }).openapi("WebhookList");

/** What an event says about its run. */
export const WebhookEventData = z
  .object({
    conversation_id: z.string(),
    run_id: z.string(),
    status: z.string(),
    output: z.unknown().optional(),
    output_truncated: z.boolean().optional().describe("The output was too large to include; read the run."),
    error: z.object({ code: z.string(), message: z.string() }).nullable().optional(),
    usage: z.unknown(),
    question: z.unknown().optional().describe("question.asked: the pending question."),
    approval: z.unknown().optional().describe("approval.requested: the tool call waiting for a decision."),
    takeover: z.unknown().optional().describe("takeover.requested: the tab handed to a person."),
    job_id: z.string().optional(),
    job_run_id: z.string().optional(),
  })
  .openapi("WebhookEventData");
export type WebhookEventData = z.infer<typeof WebhookEventData>;

/** The body of every delivery. */
export const WebhookEvent = z
  .object({
    type: WebhookEventType,
    timestamp: z.string().describe("ISO 8601, when the event happened."),
    data: WebhookEventData,
  })
  .openapi("WebhookEvent");
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const WebhookAttempt = z
  .object({
    attempt: z.number().int(),
    at: z.number().describe("Epoch milliseconds."),
    status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when none came."),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .openapi("WebhookAttempt");

export const WebhookDeliveryView = z
  .object({
    id: z.string().describe("The `webhook-id` header: the same for every attempt of one event."),
    type: WebhookEventType,
    status: z.enum(["pending", "delivered", "failed"]),
    created_at: z.number(),
    next_attempt_at: z.number().nullable(),
    attempts: z.array(WebhookAttempt),
    payload: WebhookEvent,
  })
  .openapi("WebhookDeliveryLog");
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookDeliveryList = cursorPageOf(WebhookDeliveryView).openapi("WebhookDeliveryList");
