/**
 * The rest of a text behind a "Read more" expander: a shop or a publisher prints a long
 * description or an excerpt in full and hides its second part by inline style until the reader
 * opens it (`a-expander-content a-expander-extend-content`). That part is the text's own, folded as
 * an accordion's answer is; the short hidden blocks an expander also labels (a toggle's label, a
 * popover) are not prose and stay hidden.
 */
import { hiddenByStyle } from "./dom-shape";
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { markToggle } from "./disclosures";
import { unfold } from "./folded-content";

/** A class token naming an expander's part (`a-expander-content`, `expander__body`). */
const EXPANDER_CLASS = /(^|[\s_-])expander($|[\s_-])/i;
/** A paragraph this long is prose (the same bar as a filter panel's `PROSE_PARAGRAPH_CHARS`). */
export const MIN_EXPANDED_PARAGRAPH = 200;

/** Whether the element holds a paragraph of prose and is not mostly links. */
function holdsProse(el: DomElement): boolean {
  let prose = false;
  for (const p of el.querySelectorAll("p"))
    if (textLength(p) >= MIN_EXPANDED_PARAGRAPH) {
      prose = true;
      break;
    }
  return prose && linkTextLength(el) < textLength(el) / 2;
}

/** Whether the element is an expander's folded part that holds a paragraph of prose, not mostly links. */
export function isFoldedProse(el: DomElement): boolean {
  return hiddenByStyle(el) && EXPANDER_CLASS.test(el.getAttribute("class") ?? "") && holdsProse(el);
}

/** Whole class tokens that hide a panel until its toggle opens it. */
const HIDING_TOKEN = /(?<=^|\s)(?:hidden|hide|is-hidden|d-none|collapsed?)(?=\s|$)/gi;

/** How deep a toggle may sit in the block before a panel (`<div><a aria-expanded>`), through only children. */
const TOGGLE_DEPTH = 3;

/** Whether el is, or wraps as its only child, a control stating that it is collapsed (`aria-expanded="false"`). */
function isCollapsedToggle(el: DomElement | null): boolean {
  for (let n = el, depth = 0; n && depth < TOGGLE_DEPTH; depth++) {
    if (n.getAttribute("aria-expanded") === "false") return true;
    n = n.children.length === 1 ? n.firstElementChild : null;
  }
  return false;
}

/**
 * Whether a hidden element is the panel of a lone disclosure ("Methodology – how the calculator
 * works", "Show the full terms"): the element right before it is a control stating it is
 * collapsed, and the panel holds prose. One toggle is enough here (an accordion needs two panels,
 * see `MIN_FOLDED_PANELS`) because the prose test stands in for the count: menus and dropdowns a
 * toggle opens are lists of links, not paragraphs. Dialogs stay out.
 */
export function isDisclosedProse(el: DomElement): boolean {
  if (/dialog/i.test(el.getAttribute("role") ?? "") || el.hasAttribute("aria-modal")) return false;
  return isCollapsedToggle(el.previousElementSibling) && holdsProse(el);
}

/**
 * Opens the expanders' and lone disclosures' folded parts of prose among `hidden` (elements hidden
 * by style or flag). A disclosure's toggle is marked so that no later pass reads its panel as
 * hidden (a class such as `hide` may fold it too). Cost: a class test and a sibling check on each,
 * a paragraph walk on expanders and panels after a collapsed toggle.
 */
export function openFoldedProse(hidden: DomElement[]): void {
  for (const el of hidden) {
    if (isFoldedProse(el)) unfold(el);
    else if (isDisclosedProse(el)) {
      unfold(el);
      // The toggle also flips the panel's hiding class (`hide`, `is-hidden`): the panel stays
      // content after Readability has dropped the toggle.
      const cls = el.getAttribute("class");
      if (cls) el.setAttribute("class", cls.replace(HIDING_TOKEN, " ").trim());
      if (el.previousElementSibling) markToggle(el.previousElementSibling);
    }
  }
}
