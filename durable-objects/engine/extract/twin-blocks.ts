/**
 * Blocks a page prints twice side by side: one copy per screen size (`cards` beside `cards-mobile`,
 * a site builder's breakpoint variants), a card's title in its video layout and its text layout,
 * the same panel behind every tab of a showcase, a carousel's looping copies of its slides. A
 * reader sees one of them; the second copy of the same text under the same parent goes.
 * Items of lists and tables, paragraphs, quotes and code stay: repeated rows and lines are data (a
 * training plan's warm-up in every week, a comparison table's equal cells).
 */
import { ELEMENT_NODE, solidLength, TEXT_NODE, textWords } from "./dom-text";
import type { DomElement, DomNode } from "./dom-types";

/** A twin needs at least this many words (shorter texts repeat legitimately: labels, prices, buttons). */
export const MIN_TWIN_WORDS = 8;

/** Tags whose repeats are data, not layout copies (they are not compared; what they hold is). */
const DATA_TAGS = new Set([
  "LI",
  "TD",
  "TH",
  "TR",
  "TBODY",
  "THEAD",
  "TABLE",
  "UL",
  "OL",
  "DL",
  "DT",
  "DD",
  "P",
  "PRE",
  "CODE",
  "BLOCKQUOTE",
]);

const wordsOf = (el: DomElement) => textWords(el.textContent ?? "").join(" ");

/**
 * Removes, under each parent, an element child that repeats the text of an earlier child of the
 * same tag word for word (at least MIN_TWIN_WORDS words); returns the non-space characters left
 * under `el`. Children are measured in one walk; texts are compared only for children of equal
 * measure. `measured` is told each element left under `el` with its measure, for a later pass.
 * Cost: one walk of the content and its text; a word list for each pair of equal measure.
 */
export function removeTwinBlocks(el: DomElement, measured?: (el: DomElement, chars: number) => void): number {
  let total = 0;
  // Element children by measure, for the children that may have a twin.
  let seen: Map<number, DomElement[]> | null = null;
  for (let node: DomNode | null = el.firstChild; node; ) {
    const next: DomNode | null = node.nextSibling;
    if (node.nodeType === TEXT_NODE) total += solidLength(node.textContent ?? "");
    else if (node.nodeType === ELEMENT_NODE) {
      const child = node as DomElement;
      const n = removeTwinBlocks(child, measured);
      // A twin of MIN_TWIN_WORDS words has at least that many characters.
      if (n >= MIN_TWIN_WORDS && !DATA_TAGS.has(child.tagName)) {
        seen ??= new Map();
        const alike = seen.get(n);
        if (alike && isTwin(child, alike)) child.remove();
        else {
          measured?.(child, n);
          total += n;
          if (alike) alike.push(child);
          else seen.set(n, [child]);
        }
      } else {
        measured?.(child, n);
        total += n;
      }
    }
    node = next;
  }
  return total;
}

/** Whether the element repeats the text of one of the earlier children of its measure. */
function isTwin(el: DomElement, earlier: DomElement[]): boolean {
  const words = wordsOf(el);
  if (words.split(" ").length < MIN_TWIN_WORDS) return false;
  return earlier.some((other) => other.tagName === el.tagName && wordsOf(other) === words);
}
