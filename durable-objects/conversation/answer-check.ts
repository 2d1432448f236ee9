/** Checks an answer to an ask_user question against its options. */
import type { PendingQuestion } from "../../schemas/events";
import { fail, ok, type RpcResult } from "../engine/rpc-result";

/** The answer as the tool returns it, or a 400 saying why it does not fit the question. */
export function checkAnswer(q: PendingQuestion, answer: string | string[]): RpcResult<string | string[]> {
  if (!q.options) {
    if (typeof answer !== "string")
      return fail(400, "invalid_answer", "This question takes a free-text answer (a string).");
    return ok(answer);
  }
  const given = typeof answer === "string" ? [answer] : answer;
  if (given.length === 0) return fail(400, "invalid_answer", "Choose at least one option.");
  if (!q.multiple && given.length > 1)
    return fail(400, "invalid_answer", "This question takes exactly one option.");
  const unknown = given.filter((a) => !q.options!.includes(a));
  if (unknown.length) {
    return fail(
      400,
      "invalid_answer",
      `Not one of the options: ${unknown.map((a) => JSON.stringify(a)).join(", ")}. Options: ${q.options.map((o) => JSON.stringify(o)).join(", ")}.`,
    );
  }
  return ok(q.multiple ? [...new Set(given)] : given[0]);
}
