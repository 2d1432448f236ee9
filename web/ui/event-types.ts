/** Cirrus events by their `type` string, for typed handlers without importing AG-UI at runtime. */
import type { CirrusEvent, ConversationState, PendingQuestion, Task } from "../../schemas/events";

/** Every event type mapped to its event. */
export type EventsByType = { [E in CirrusEvent as `${E["type"]}`]: E };

/** A handler per event type. */
export type EventHandlers = {
  [K in keyof EventsByType]?: (event: EventsByType[K], history: boolean) => void;
};

/** The `ask_user` CUSTOM event's value. */
export type AskUserValue = Omit<PendingQuestion, "asked_at"> & { asked_at?: number };

export type { ConversationState, PendingQuestion, Task };

/** The files a tool call wrote, as the server listed them on its TOOL_CALL_RESULT. */
export function resultFiles(event: EventsByType["TOOL_CALL_RESULT"]): string[] {
  return (event.files ?? []).map((f) => f.path).filter((p) => typeof p === "string" && p.length > 0);
}

/** Applies a STATE_DELTA (top-level replace/add/remove, as the runtime emits) to a state. */
export function applyStateDelta(
  state: ConversationState,
  delta: { op: string; path: string; value?: unknown }[],
): ConversationState {
  const next = { ...state } as Record<string, unknown>;
  for (const op of delta) {
    const key = op.path.replace(/^\//, "").split("/")[0];
    if (!key) continue;
    if (op.op === "remove") delete next[key];
    else if (op.op === "add" || op.op === "replace") next[key] = op.value;
  }
  return next as ConversationState;
}

/** A readable one-line string of any JSON value. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return String(value);
  }
}
