/**
 * What a waiting run waits for: an ask_user question or a request_takeover hand-off, both kept
 * in the conversation's state record (so they survive eviction), each with a deadline and the
 * result the tool gets when nobody answered in time.
 */
import type { CirrusEvent } from "../../schemas/events";
import type { StateHolder } from "../engine/loop/conversation-state";
import { ev } from "../engine/loop/event-builders";

/** The pause a waiting run is in. */
export interface Pause {
  kind: "question" | "takeover";
  /** The tool call it answers (question_id / takeover_id). */
  id: string;
  expires_at: number;
}

/** The tool's result when the deadline passes. */
export const TIMEOUT_RESULT: Record<Pause["kind"], Record<string, unknown>> = {
  question: { answer: null, reason: "timeout" },
  takeover: { status: "timeout" },
};

/** The conversation's current pause, if any. */
export function currentPause(state: StateHolder): Pause | null {
  const q = state.pendingQuestion;
  if (q) return { kind: "question", id: q.question_id, expires_at: q.expires_at };
  const t = state.pendingTakeover;
  if (t) return { kind: "takeover", id: t.takeover_id, expires_at: t.expires_at };
  return null;
}

/** The CUSTOM event announcing how a pause ended. */
export function resolvedEvent(pause: Pause, result: Record<string, unknown>): CirrusEvent {
  return pause.kind === "question"
    ? ev.custom("ask_user_resolved", { question_id: pause.id, ...result })
    : ev.custom("takeover_resolved", { takeover_id: pause.id, ...result });
}

/** Clears the pause from the state. */
export function clearPause(state: StateHolder, pause: Pause): void {
  if (pause.kind === "question") state.setPendingQuestion(null);
  else state.setPendingTakeover(null);
}
