/**
 * The rest of a text behind a "Read more" expander: a shop or a publisher prints a long
 * description or an excerpt in full and hides its second part by inline style until the reader
 * opens it (`a-expander-content a-expander-extend-content`). That part is the text's own, folded as
 * an accordion's answer is; the short hidden blocks an expander also labels (a toggle's label, a
 * popover) are not prose and stay hidden.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { unfold } from "./folded-content";

/** A class token naming an expander's part (`a-expander-content`, `expander__body`). */
const EXPANDER_CLASS = /(^|[\s_-])expander($|[\s_-])/i;
/** A paragraph this long is prose (the same bar as a filter panel's `PROSE_PARAGRAPH_CHARS`). */
export const MIN_EXPANDED_PARAGRAPH = 200;

const hiddenByStyle = (el: DomElement) => /display\s*:\s*none/i.test(el.getAttribute("style") ?? "");

/** Whether the element is an expander's folded part that holds a paragraph of prose, not mostly links. */
export function isFoldedProse(el: DomElement): boolean {
  if (!hiddenByStyle(el) || !EXPANDER_CLASS.test(el.getAttribute("class") ?? "")) return false;
  let prose = false;
  for (const p of el.querySelectorAll("p"))
    if (textLength(p) >= MIN_EXPANDED_PARAGRAPH) {
      prose = true;
      break;
    }
  return prose && linkTextLength(el) < textLength(el) / 2;
}

/** Opens the expanders' folded parts of prose among `hidden` (elements hidden by style or flag). Cost: a class test on each, a paragraph walk on expanders. */
export function openFoldedProse(hidden: DomElement[]): void {
  for (const el of hidden) if (isFoldedProse(el)) unfold(el);
}
