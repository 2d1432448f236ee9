/** Helpers for the approval tests: waiting for approvals, deciding them, reading what the model saw. */
import type { PendingApproval } from "../../../schemas/approvals";
import { api, eventually, getConversation, modelRequests, readSse, type SseMessage } from "../helpers";

/** Sends a message without waiting for its stream. */
export async function send(id: string, content: string, token?: string): Promise<void> {
  const res = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content }, token });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  await res.body?.cancel();
}

/** Waits until the conversation has `n` pending approvals (and is waiting for them). */
export async function pendingApprovals(id: string, n = 1, token?: string): Promise<PendingApproval[]> {
  return eventually(async () => {
    const c = await getConversation(id, token);
    const list = c.pending_approvals as PendingApproval[];
    return c.status === "waiting_for_approval" && list.length === n ? list : null;
  });
}

/** POSTs a decision. */
export function decide(id: string, approvalId: string, body: unknown, token?: string): Promise<Response> {
  return api(`/v1/conversations/${id}/approvals/${approvalId}`, { method: "POST", json: body, token });
}

/** Waits until the conversation is idle again. */
export function idle(id: string, token?: string): Promise<unknown> {
  return eventually(async () => (await getConversation(id, token)).status === "idle", 15_000);
}

/** The tool results of the model's last request, by tool call id. */
export async function lastToolResults(key: string): Promise<Record<string, string>> {
  const last = (await modelRequests(key)).at(-1)!.messages as {
    role: string;
    content: unknown;
    tool_call_id?: string;
  }[];
  return Object.fromEntries(
    last.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, String(m.content)]),
  );
}

/** Every event of the conversation so far (the stream is cut once the run has ended). */
export async function allEvents(id: string, token?: string): Promise<SseMessage[]> {
  return readSse(
    await api(`/v1/conversations/${id}/events`, { token }),
    (m) => m.data.type === "RUN_FINISHED" || m.data.type === "RUN_ERROR",
  );
}

/** The CUSTOM events of a name. */
export const customs = (events: SseMessage[], name: string) =>
  events
    .filter((e) => e.data.type === "CUSTOM" && e.data.name === name)
    .map((e) => e.data.value as Record<string, unknown>);
