/**
 * How a person ends a pause: answering the pending `ask_user` question (checked against its
 * options), resolving it without an answer, or finishing a take-over of the browser.
 */
import type { AnswerBody } from "../../schemas/api";
import type { TakeoverDone } from "../../schemas/browser-api";
import type { BrowserLink } from "./browser-link";
import type { StateHolder } from "../engine/loop/conversation-state";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { checkAnswer } from "./answer-check";
import { currentPause, type Pause } from "./pauses";

/** What answering needs: the state, the browser, and the driver's way of ending a pause. */
export interface PauseParts {
  state: StateHolder;
  browser(): BrowserLink | null;
  resolve(pause: Pause, result: Record<string, unknown>): Promise<void>;
}

/** Answers the pending ask_user question. */
export async function answerQuestion(
  p: PauseParts,
  body: AnswerBody,
): Promise<RpcResult<{ question_id: string; answer: string | string[] }>> {
  const q = p.state.pendingQuestion;
  if (!q) return fail(409, "no_pending_question", "There is no question waiting for an answer.");
  if (q.question_id !== body.question_id) {
    return fail(
      409,
      "question_mismatch",
      `The pending question is ${q.question_id}, not ${body.question_id}.`,
    );
  }
  const checked = checkAnswer(q, body.answer);
  if (!checked.ok) return checked;
  await p.resolve(currentPause(p.state)!, { answer: checked.value });
  return ok({ question_id: q.question_id, answer: checked.value });
}

/** Resolves the pending question with `{"answer": null, reason}`; false when it is not pending. */
export async function answerWithout(p: PauseParts, questionId: string, reason: string): Promise<boolean> {
  if (p.state.pendingQuestion?.question_id !== questionId) return false;
  await p.resolve(currentPause(p.state)!, { answer: null, reason });
  return true;
}

/** The person is done with a take-over: saves the browser to its profile, then resumes the run. */
export async function finishTakeover(
  p: PauseParts,
  takeoverId: string,
  note: string | null,
): Promise<RpcResult<TakeoverDone>> {
  const pending = () => {
    const t = p.state.pendingTakeover;
    if (!t) return fail(409, "no_pending_takeover", "There is no take-over waiting to be finished.");
    if (t.takeover_id !== takeoverId)
      return fail(409, "takeover_mismatch", `The pending take-over is ${t.takeover_id}, not ${takeoverId}.`);
    return ok(t);
  };
  const before = pending();
  if (!before.ok) return before;
  const browser = p.browser()!;
  const tab = await browser.tabFacts(before.value.tab_id);
  await browser.saveBrowser().catch(() => null); // a profile-less conversation has nothing to save
  const still = pending(); // the deadline may have passed while the browser was read
  if (!still.ok) return still;
  const result = { status: "done" as const, note, url: tab?.url ?? null, title: tab?.title ?? null };
  await p.resolve(currentPause(p.state)!, result);
  return ok({ takeover_id: takeoverId, ...result });
}
