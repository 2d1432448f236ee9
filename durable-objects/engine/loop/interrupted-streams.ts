/**
 * Interrupted-stream repair: after a restart, closes what an earlier attempt left open (a text
 * message, tool calls, a step) so the event stream stays well formed, and says it resumed.
 */
import type { CirrusEvent } from "../../../schemas/events";
import { ev } from "./event-builders";

/** Event types the repair looks at. */
export const STREAM_EVENT_TYPES = [
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_END",
  "TOOL_CALL_START",
  "TOOL_CALL_END",
] as const;

/** Emits the END events missing from `past`; returns how many streams it closed. */
export function closeInterruptedStreams(past: Iterable<CirrusEvent>, emit: (e: CirrusEvent) => void): number {
  const openText = new Set<string>();
  const openTools = new Set<string>();
  const openSteps = new Set<string>();
  for (const e of past) {
    if (e.type === "TEXT_MESSAGE_START") openText.add(e.messageId);
    else if (e.type === "TEXT_MESSAGE_END") openText.delete(e.messageId);
    else if (e.type === "TOOL_CALL_START") openTools.add(e.toolCallId);
    else if (e.type === "TOOL_CALL_END") openTools.delete(e.toolCallId);
    else if (e.type === "STEP_STARTED") openSteps.add(e.stepName);
    else if (e.type === "STEP_FINISHED") openSteps.delete(e.stepName);
  }
  for (const id of openText) emit(ev.textEnd(id));
  for (const id of openTools) emit(ev.toolEnd(id));
  for (const name of openSteps) emit(ev.stepFinished(name));
  const closed = openText.size + openTools.size + openSteps.size;
  if (closed > 0) {
    emit(
      ev.custom("notice", {
        kind: "run_resumed",
        message: "The run was interrupted and resumed from its last checkpoint.",
      }),
    );
  }
  return closed;
}
