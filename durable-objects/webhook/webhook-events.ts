/**
 * What the other objects call to raise a webhook event: the stub of a workspace's webhooks
 * object and the event bodies for runs, questions and job runs.
 */
import { webhookStub } from "../addresses/webhook";
import type { WebhookEvent, WebhookEventData, WebhookEventType } from "../../schemas/webhooks";
import type { WebhookObject } from "./webhook-object";

/** Outputs larger than this (as JSON) are left out of the body, with `output_truncated: true`. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

/** The webhooks object of a workspace. */
export function webhooksStub(env: Env, workspaceId: string): DurableObjectStub<WebhookObject> {
  return webhookStub(env, workspaceId) as DurableObjectStub<WebhookObject>;
}

/** An event body; `output` is included when given and small enough. */
export function webhookEvent(
  type: WebhookEventType,
  data: Omit<WebhookEventData, "output" | "output_truncated"> & { output?: unknown },
  at = Date.now(),
): WebhookEvent {
  const { output, ...rest } = data;
  const out: WebhookEventData = { ...rest };
  if (output !== undefined) {
    const size = new TextEncoder().encode(JSON.stringify(output) ?? "null").length;
    if (size <= MAX_OUTPUT_BYTES) out.output = output;
    else out.output_truncated = true;
  }
  return { type, timestamp: new Date(at).toISOString(), data: out };
}

/** Queues an event with the workspace's webhooks (best effort: a failure is logged, never thrown). */
export async function raiseWebhookEvent(env: Env, workspaceId: string, event: WebhookEvent): Promise<void> {
  try {
    await webhooksStub(env, workspaceId).dispatch(event);
  } catch (err) {
    console.warn("webhook event not queued", event.type, (err as Error).message);
  }
}
