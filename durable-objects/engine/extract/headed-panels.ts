/**
 * Accordions built of headings and hidden blocks: each question is a heading (`<h3>Fit</h3>`) and
 * its answer the block right after it, hidden (`hidden`, `aria-hidden`, `display:none`) until the
 * reader opens it, with no control, role or class word left to name the pair (the toggle was a
 * script's, or a button cut before parsing). Two or more such pairs holding prose are an accordion
 * whose answers are content, as `foldedPanels` opens the labelled ones.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { MIN_FOLDED_PANELS, unfold } from "./folded-content";

/** An answer holds at least this many characters of text... */
export const MIN_ANSWER_CHARS = 80;
/** ... less than this share of it link text (a heading over a hidden menu is a nav section). */
export const MAX_ANSWER_LINK_SHARE = 0.3;

const HEADING = /^H[2-6]$/;
/** Roles of a window over the page (never an answer). */
const DIALOG_ROLE = /dialog/i;

/** Whether a hidden element is the answer of a heading right before it. */
function isHeadedAnswer(el: DomElement): boolean {
  const heading = el.previousElementSibling;
  if (!heading || !HEADING.test(heading.tagName) || DIALOG_ROLE.test(el.getAttribute("role") ?? ""))
    return false;
  const chars = textLength(el);
  return chars >= MIN_ANSWER_CHARS && linkTextLength(el) < chars * MAX_ANSWER_LINK_SHARE;
}

/**
 * The hidden answers among `hidden` (elements hidden by attribute, flag or style) that follow
 * their heading, opened, when there are at least MIN_FOLDED_PANELS of them. Cost: a sibling's tag
 * test per hidden element; a text measure only after a heading.
 */
export function openHeadedPanels(hidden: Iterable<DomElement>): Set<DomElement> {
  const answers = new Set<DomElement>();
  for (const el of hidden) if (isHeadedAnswer(el)) answers.add(el);
  if (answers.size < MIN_FOLDED_PANELS) return new Set();
  for (const el of answers) unfold(el);
  return answers;
}
