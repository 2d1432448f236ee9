/** Text measures shared by the extraction steps: lengths with whitespace folded, as a reader sees the text. */
import type { DomElement } from "./dom-types";

/** Characters of the element's text, whitespace folded and trimmed. */
export const textLength = (el: DomElement) => (el.textContent ?? "").replace(/\s+/g, " ").trim().length;

/** Characters of the text of the element's links, measured as `textLength`. */
export function linkTextLength(el: DomElement): number {
  let n = 0;
  for (const a of el.querySelectorAll("a")) n += textLength(a);
  return n;
}
