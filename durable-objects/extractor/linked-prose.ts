/**
 * Readability drops a block when more than a fifth of its text is links ("a little linky"). The
 * item of a ranked list often ends in links of its own ("Read the full review", "Compare deals
 * with ...") and loses its paragraph of prose with them. Such a block is kept when it holds a
 * paragraph of prose almost free of links and under half its text is links; a teaser card (a
 * related post: its heading is a link to another page, its excerpt prose too) still goes.
 */
import type { DomElement } from "./dom-types";
import { linkTextLength, textLength } from "./dom-text";

/** A paragraph this long is prose, not a caption or a button's label. */
export const PROSE_CHARS = 200;
/** ... when under this share of it is link text. */
export const PROSE_LINK_SHARE = 0.1;
/** A block with such a paragraph stays while under this share of its text is links. */
export const LINKED_PROSE_LINK_SHARE = 0.5;

/** Headings holding a link: the title of a teaser card. */
const LINKED_HEADING = "h1 a, h2 a, h3 a, h4 a, h5 a, h6 a";

/**
 * Whether a block Readability would drop for its links (`linkDensity`, Readability's measure) is
 * prose with links beside it. Cost: run only on blocks failing that one check; a query of the
 * block's linked headings and its paragraphs, each measured once.
 */
export function isLinkedProse(node: DomElement, linkDensity: number): boolean {
  if (linkDensity >= LINKED_PROSE_LINK_SHARE || node.querySelector(LINKED_HEADING)) return false;
  for (const p of node.querySelectorAll("p")) {
    const length = textLength(p);
    if (length >= PROSE_CHARS && linkTextLength(p) < length * PROSE_LINK_SHARE) return true;
  }
  return false;
}
