/**
 * Disclosure widgets (FAQ accordions, "show details" toggles) whose toggle is a button holding
 * the question's heading. Buttons are cut from the HTML text before parsing (they are controls),
 * but such a button's heading is the question: it stays, and the panel the button opens, hidden
 * until then, is content.
 */
import type { DomElement } from "./dom-types";

/** A heading tag opening inside a button's markup. */
const HEADING_TAG = /<h[1-6][\s>]/i;
/** The role a kept toggle is marked with, so the panel after it is known. */
const TOGGLE = "disclosure";

/**
 * What stays of a `<button>` block cut from the HTML text: a button holding a heading becomes a
 * marked block around its inner markup (`strip` removes never-content markup from it); "" otherwise.
 */
export function keptButton(block: string, strip: (markup: string) => string): string {
  if (!HEADING_TAG.test(block)) return "";
  return `<div role="${TOGGLE}">${strip(block.replace(/^<button\b[^>]*>|<\/button\s*>$/gi, ""))}</div>`;
}

/** Whether a hidden element is the panel a kept toggle opens: the element right after it. */
export function isDisclosedPanel(el: DomElement): boolean {
  return el.previousElementSibling?.getAttribute("role") === TOGGLE;
}
