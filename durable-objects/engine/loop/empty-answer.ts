/**
 * A model turn with no text and no tool call (models do this after tool results, often enough that
 * peers' users report runs ending "successfully" with nothing). It is not taken as the answer: the
 * model is told once to answer; if it answers nothing again, the run's answer is the last thing it
 * wrote beside a tool call, and with none the run fails `empty_answer` instead of succeeding silently.
 */
import type { ModelTurn } from "../model/model-types";
import type { LoopOutcome, StepDeps } from "./loop-deps";

const EMPTY_ANSWER_NOTE = "Your last reply was empty: you have not answered yet.";

/** Assistant turns looked through for something the model wrote beside its tool calls. */
const LOOK_BACK = 50;

const isEmpty = (turn: ModelTurn) => turn.toolCalls.length === 0 && turn.text.trim() === "";

/** Whether an empty answer was sent back (once a run) with a note to answer now. */
export function sendEmptyAnswerBack(deps: StepDeps, runId: string, turn: ModelTurn): boolean {
  if (!isEmpty(turn) || deps.messages.countStartingWith(runId, "system", EMPTY_ANSWER_NOTE) > 0) return false;
  deps.messages.append(runId, {
    role: "system",
    content: `${EMPTY_ANSWER_NOTE} Answer the user now from what you found, or call a tool if you still need one.`,
  });
  return true;
}

/**
 * The text a final turn stands for: its own; for an empty one, the last text the model wrote in this
 * run (beside a tool call); null when it wrote none.
 */
export function answerText(deps: StepDeps, runId: string, turn: ModelTurn): string | null {
  if (!isEmpty(turn)) return turn.text;
  for (const stored of deps.messages.recentAssistant(runId, LOOK_BACK)) {
    const content = stored.message.content;
    if (typeof content === "string" && content.trim() !== "") return content;
  }
  return null;
}

/** How a run whose model never answered ends. */
export const EMPTY_ANSWER: LoopOutcome = {
  kind: "failed",
  code: "empty_answer",
  message: "The model answered with nothing, twice, and wrote nothing else in this run.",
};
