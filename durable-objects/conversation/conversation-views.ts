/** Turns stored conversation records into the API's views. */
import type { ChatMessageView, RunView } from "../../shared/api";
import type { StoredMessage } from "../engine/store/message-store";
import type { Run } from "../engine/store/run-store";

/** A stored message as the API shows it. */
export function messageView(m: StoredMessage): ChatMessageView {
  const msg = m.message;
  const base = { id: m.id, run_id: m.run_id, role: msg.role, created_at: m.at };
  if (msg.role === "assistant") {
    return {
      ...base,
      content: msg.content,
      ...(msg.tool_calls?.length
        ? {
            tool_calls: msg.tool_calls.map((c) => ({
              id: c.id,
              name: c.function.name,
              arguments: c.function.arguments,
            })),
          }
        : {}),
    };
  }
  if (msg.role === "tool") return { ...base, content: msg.content, tool_call_id: msg.tool_call_id };
  return { ...base, content: msg.content };
}

/** A run as the API shows it. */
export function runView(r: Run): RunView {
  return {
    id: r.id,
    status: r.status,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    steps: r.steps,
    usage: r.usage,
    output: r.output,
    error: r.error,
  };
}
