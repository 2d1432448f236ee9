/**
 * A thread read from its second post: on a forum page Readability may take the block of replies
 * and leave the opening post, which the page prints in a container of its own. The page's region
 * starts with the opening post; when Readability's article does not hold the region's first
 * paragraph, the article started late and the region is the thread.
 */
import { foldText, TEXT_NODE, textOf } from "./dom-text";
import type { DomElement, DomNode } from "./dom-types";

/** The first run of text of at least this many characters is the region's opening paragraph. */
export const OPENING_CHARS = 80;
/** How much of the opening paragraph is looked for in the article. */
const PROBE_CHARS = 60;

/** The first text of the block at least OPENING_CHARS long, folded; "" when it has none. */
function openingText(node: DomNode): string {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    const text = child.nodeType === TEXT_NODE ? foldText(child.textContent ?? "") : openingText(child);
    if (text.length >= OPENING_CHARS) return text;
  }
  return "";
}

/** Whether Readability's article leaves out the opening paragraph of the region (the thread's first post). */
export function missesOpening(region: DomElement, article: DomElement): boolean {
  const opening = openingText(region);
  return opening !== "" && !textOf(article).includes(opening.slice(0, PROBE_CHARS));
}
