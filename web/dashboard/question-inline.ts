/** The pending ask_user question of a conversation, answerable in place: options, checkboxes or text. */
import { clear, h } from "../ui/dom";
import type { PendingQuestion } from "../ui/event-types";
import { api } from "./client";
import { failureText, notice } from "./ui";

/** Shows the conversation's pending question (from its state) with a way to answer it. */
export class QuestionInline {
  readonly el = h("div", { class: "question-inline" });
  private shown: string | null = null;

  constructor(private readonly conversationId: string) {}

  /** Renders `q`, or nothing when no question is pending. */
  render(q: PendingQuestion | null): void {
    if ((q?.question_id ?? null) === this.shown) return;
    this.shown = q?.question_id ?? null;
    clear(this.el);
    if (q) this.el.append(this.form(q));
  }

  private form(q: PendingQuestion): HTMLElement {
    const out = h("div");
    const form = h(
      "form",
      { class: "card question", "aria-label": "Question from the agent" },
      h("strong", {}, "The agent asks: "),
      h("p", {}, q.question),
    );
    const submit = async (answer: string | string[]) => {
      try {
        await api(`/v1/conversations/${encodeURIComponent(this.conversationId)}/answer`, {
          method: "POST",
          json: { question_id: q.question_id, answer },
        });
        for (const el of form.querySelectorAll("button, input, textarea")) el.setAttribute("disabled", "");
      } catch (err) {
        out.replaceChildren(notice(failureText(err), true));
      }
    };
    const options = q.options ?? [];
    if (options.length && q.multiple) {
      const boxes = options.map((o) => h("input", { type: "checkbox", value: o }));
      form.append(
        ...options.map((o, i) => h("label", { class: "option" }, boxes[i], ` ${o}`)),
        h("p", {}, h("button", { type: "submit" }, "Answer")),
      );
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        void submit(boxes.filter((b) => b.checked).map((b) => b.value));
      });
    } else if (options.length) {
      for (const o of options) {
        const b = h("button", { type: "button", class: "option" }, o);
        b.addEventListener("click", () => void submit(o));
        form.append(b, " ");
      }
      form.addEventListener("submit", (e) => e.preventDefault());
    } else {
      const text = h("textarea", { rows: "2", "aria-label": "Your answer" });
      form.append(text, h("p", {}, h("button", { type: "submit" }, "Answer")));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        if (text.value.trim()) void submit(text.value.trim());
      });
    }
    form.append(out);
    return form;
  }
}
