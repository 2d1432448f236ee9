/**
 * A model turn the provider cut at its output limit (`finish_reason: "length"`). A tool call whose
 * arguments were cut is answered at once with an error saying so, instead of being run or read as
 * the model's mistake; an answer that was cut is not taken as the run's result: the model is told
 * and answers again, shorter (twice at most, then the run ends with what it has, as before). An
 * answer the provider's content filter stopped (`"content_filter"`) ends the run as failed.
 */
import type { ModelTurn } from "../model/model-types";
import { errorResult } from "../tools/tool-runner";
import { ev } from "./event-builders";
import type { LoopOutcome, StepDeps } from "./loop-deps";

/** Times a run is told its answer was cut before a cut answer is taken as it is. */
export const CUT_ANSWER_NOTES = 2;

const CUT_CALL =
  "Your reply reached the model's output limit, so this call's arguments were cut off and it was not run. Call it again with less in it: write long content in parts.";
const CUT_ANSWER_NOTE = "Your last answer was cut off: it reached the model's output limit.";

/** Whether a cut turn's call arguments are whole: JSON, and not left empty by the cut. */
const parses = (args: string) => {
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
  }
};

/** Answers the calls of a cut turn whose arguments do not parse; the others run as usual. */
export function answerCutCalls(deps: StepDeps, runId: string, turn: ModelTurn): void {
  if (turn.finishReason !== "length") return;
  for (const call of turn.toolCalls) {
    if (parses(call.function.arguments)) continue;
    const { content } = errorResult("output_truncated", CUT_CALL) as { content: string };
    deps.messages.append(runId, { role: "tool", tool_call_id: call.id, content });
    deps.emit(runId, ev.toolResult(call.id, content, true, []));
  }
}

/**
 * Whether a cut answer was sent back: the run is told (while it has notes left) to answer again,
 * shorter, with long content in a workspace file when it can write one.
 */
export function sendCutAnswerBack(deps: StepDeps, runId: string, turn: ModelTurn): boolean {
  if (turn.finishReason !== "length" || turn.toolCalls.length > 0) return false;
  if (deps.messages.countStartingWith(runId, "system", CUT_ANSWER_NOTE) >= CUT_ANSWER_NOTES) return false;
  const how = deps.tools.get("opfs_write")
    ? "Answer again, shorter: put long content in a workspace file with opfs_write (in parts if it is long) and answer with a summary that names the file."
    : "Answer again, shorter: keep to what matters most.";
  deps.messages.append(runId, { role: "system", content: `${CUT_ANSWER_NOTE} ${how}` });
  return true;
}

/** How a run ends whose answer the provider's content filter stopped; null for any other turn. */
export function filteredAnswer(turn: ModelTurn): LoopOutcome | null {
  if (turn.finishReason !== "content_filter" || turn.toolCalls.length > 0) return null;
  return {
    kind: "failed",
    code: "content_filtered",
    message:
      "The model provider's content filter stopped the answer; what it had written is not the run's result.",
  };
}
