/** Small shared pieces of dashboard pages. */
import { h } from "../ui/dom";
import { ApiFailure } from "./client";

/** A labelled form field. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  const id = `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  return h(
    "div",
    {},
    h("label", { for: id }, label),
    control,
    hint ? h("div", { class: "muted" }, hint) : null,
  );
}

/** A notice box (role=status), or an error box (role=alert). */
export function notice(text: string, error = false): HTMLElement {
  return h("div", { class: error ? "notice error" : "notice", role: error ? "alert" : "status" }, text);
}

/** A readable message for a failed call. */
export function failureText(err: unknown): string {
  if (err instanceof ApiFailure) return `${err.message} (${err.status} ${err.code})`;
  return "Could not reach Cirrus.";
}

/** Formats epoch milliseconds. */
export function when(ms: number): string {
  return new Date(ms).toLocaleString();
}
