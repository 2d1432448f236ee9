/** Which of a conversation's events become webhook events, and what those say about the run. */
import type { CirrusEvent } from "../../schemas/events";
import type { WebhookEvent, WebhookEventType } from "../../schemas/webhooks";
import type { Run } from "../engine/store/run-store";
import { webhookEvent } from "../webhook/webhook-events";

const TERMINAL: Partial<Record<Run["status"], WebhookEventType>> = {
  succeeded: "run.succeeded",
  failed: "run.failed",
  cancelled: "run.cancelled",
};

/** The webhook event an emitted event raises (a run's end, a question asked), or null. */
export function runWebhookEvent(
  event: CirrusEvent,
  conversationId: string,
  run: Run | null,
): WebhookEvent | null {
  if (!run) return null;
  const base = { conversation_id: conversationId, run_id: run.id, usage: run.usage };
  if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") {
    const type = TERMINAL[run.status];
    if (!type) return null;
    return webhookEvent(type, {
      ...base,
      status: run.status,
      ...(run.status === "succeeded" ? { output: run.output } : {}),
      error: run.error,
    });
  }
  if (event.type === "CUSTOM" && event.name === "ask_user")
    return webhookEvent("question.asked", { ...base, status: "waiting_for_user", question: event.value });
  if (event.type === "CUSTOM" && event.name === "takeover_requested")
    return webhookEvent("takeover.requested", { ...base, status: run.status, takeover: event.value });
  if (event.type === "CUSTOM" && event.name === "approval_requested")
    return webhookEvent("approval.requested", { ...base, status: run.status, approval: event.value });
  return null;
}
