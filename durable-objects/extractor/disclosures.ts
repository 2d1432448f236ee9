/**
 * Disclosure widgets (FAQ accordions, "show details" toggles) whose toggle is a button holding
 * the question's heading. Buttons are cut from the HTML text before parsing (they are controls),
 * but such a button's heading is the question: it stays, and the panel the button opens, hidden
 * until then, is content. In the ARIA accordion pattern the heading holds the button instead
 * (`<h3><button aria-expanded>`): the button's label is the heading's text and stays.
 */
import type { DomElement } from "./dom-types";
import { innerOf } from "./raw-blocks";

/** A heading tag opening inside a button's markup. */
const HEADING_TAG = /<h[1-6][\s>]/i;
/** The HTML text before a button ends by opening a heading: the button is the heading's whole text. */
const HEADING_OPENED = /<h[1-6]\b[^>]*>\s*$/i;
/** The opening tag of an accordion's button: it states what it expands. */
const ACCORDION_BUTTON = /^<button\b[^>]*\saria-(expanded|controls)\s*=/i;
/** How far back from a button the opening of its heading is looked for. */
export const HEADING_LOOKBACK_CHARS = 200;
/** The role a kept toggle is marked with, so the panel after it is known. */
const TOGGLE = "disclosure";

/**
 * What stays of a `<button>` block cut from the HTML text: a button holding a heading becomes a
 * marked block around its inner markup (`strip` removes never-content markup from it); "" otherwise.
 */
export function keptButton(block: string, strip: (markup: string) => string, before = ""): string {
  // The accordion pattern's other shape: a heading holding the button (`<h3><button aria-expanded>`) reads as its label.
  if (HEADING_OPENED.test(before) && ACCORDION_BUTTON.test(block)) return strip(innerOf(block));
  return HEADING_TAG.test(block) ? `<div role="${TOGGLE}">${strip(innerOf(block))}</div>` : "";
}

/** Whether a hidden element is the panel a kept toggle opens: the element right after it. */
export const isDisclosedPanel = (el: DomElement) =>
  el.previousElementSibling?.getAttribute("role") === TOGGLE;
