/** The ask_user form: free text, option buttons, or checkboxes when `multiple`; with a countdown. */
import { h } from "../ui/dom";
import type { AskUserValue } from "../ui/event-types";
import type { Strings } from "./i18n";

const TICK_MS = 1000;

/** Formats milliseconds as m:ss. */
export function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** One question on screen. */
export class QuestionView {
  readonly el: HTMLElement;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly countdown: HTMLElement;
  private readonly controls: (HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement)[] = [];
  private readonly error: HTMLElement;

  constructor(
    readonly question: AskUserValue,
    private readonly strings: Strings,
    private readonly submit: (answer: string | string[]) => Promise<void>,
  ) {
    this.countdown = h("span", { class: "countdown", "aria-live": "off" });
    this.error = h("div", { class: "q-error", role: "alert" });
    this.el = h(
      "form",
      { class: "question", "aria-label": question.question.slice(0, 200) },
      h("p", { class: "q-text" }, question.question),
      this.body(),
      h("div", { class: "q-foot" }, h("span", {}, `${strings.timeLeft} `), this.countdown),
      this.error,
    );
    this.el.addEventListener("submit", (e) => e.preventDefault());
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Removes the form and stops the countdown. */
  destroy(): void {
    clearInterval(this.timer);
    this.el.remove();
  }

  /** Moves keyboard focus to the first control. */
  focus(): void {
    this.controls[0]?.focus();
  }

  private body(): HTMLElement {
    const { options, multiple } = this.question;
    if (options?.length && !multiple) {
      const buttons = options.map((opt) => {
        const b = h("button", { type: "button", class: "q-option" }, opt);
        b.addEventListener("click", () => this.send(opt));
        return b;
      });
      this.controls.push(...buttons);
      return h("div", { class: "q-options", role: "group" }, ...buttons);
    }
    if (options?.length) {
      const boxes = options.map((opt) => h("input", { type: "checkbox", value: opt }));
      const ok = this.submitButton(() => this.send(boxes.filter((b) => b.checked).map((b) => b.value)));
      this.controls.push(...boxes, ok);
      return h(
        "fieldset",
        { class: "q-checks" },
        ...boxes.map((box, i) => h("label", {}, box, ` ${options[i]}`)),
        ok,
      );
    }
    const input = h("textarea", { rows: "2", "aria-label": this.question.question.slice(0, 200) });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        if (input.value.trim()) this.send(input.value.trim());
      }
    });
    const ok = this.submitButton(() => input.value.trim() && this.send(input.value.trim()));
    this.controls.push(input, ok);
    return h("div", { class: "q-free" }, input, ok);
  }

  private submitButton(onClick: () => unknown): HTMLButtonElement {
    const b = h("button", { type: "submit", class: "q-submit" }, this.strings.answer);
    b.addEventListener("click", (e) => {
      e.preventDefault();
      onClick();
    });
    return b;
  }

  private tick(): void {
    const left = this.question.expires_at - Date.now();
    this.countdown.textContent = left > 0 ? formatLeft(left) : this.strings.expired;
    if (left <= 0) {
      clearInterval(this.timer);
      this.setDisabled(true);
      this.el.classList.add("expired");
    }
  }

  private setDisabled(disabled: boolean): void {
    for (const c of this.controls) c.disabled = disabled;
  }

  private async send(answer: string | string[]): Promise<void> {
    if (Array.isArray(answer) && answer.length === 0) return;
    this.setDisabled(true);
    this.error.textContent = "";
    try {
      await this.submit(answer);
    } catch {
      this.error.textContent = this.strings.sendFailed;
      if (this.question.expires_at > Date.now()) this.setDisabled(false);
    }
  }
}
