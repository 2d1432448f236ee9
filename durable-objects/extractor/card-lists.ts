/**
 * Repeated card lists: the content of listings (blog indexes, directories, search results, job
 * boards) and collections (category grids). One node holds one card; the content is the run of
 * sibling cards that share one structure, each with a link and a title.
 */

import { labelOf, mostCommon, shapeOf } from "./dom-shape";
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { DISCUSSION_ATTR } from "./vocabulary/class-words";

/** A card's title: a heading, or a link with at least this much text (a menu entry is a word or two). */
export const MIN_TITLE_CHARS = 15;
/** A card list has at least this many cards. */
export const MIN_CARDS = 4;
/** Cards share the list's most common tag/class signature at least this often among its children. */
export const SAME_SHAPE_SHARE = 0.6;
/** A card's text is at least this long (a title), and at most this long (not a whole article). */
export const MIN_CARD_CHARS = 12;
export const MAX_CARD_CHARS = 2000;
/** Cards average at least this many characters of text: a menu's entries are single words. */
export const MIN_MEAN_CARD_CHARS = 30;

/** A run of repeated cards and how much text they hold. */
export interface CardList {
  node: DomElement;
  cards: number;
  chars: number;
}

/** Tags that are text or media inside a block, never a card. */
const INLINE_TAG = /^(P|SPAN|BR|IMG|PICTURE|SOURCE|EM|STRONG|B|I|SMALL|OPTION|LABEL)$/;

/** Whether a card has a linked title: a heading with a link in the card, or a link with a title's length. */
function hasTitle(card: DomElement): boolean {
  if (card.tagName === "A") return textLength(card) >= MIN_TITLE_CHARS;
  let linked = false;
  for (const a of card.querySelectorAll("a[href]")) {
    if (textLength(a) >= MIN_TITLE_CHARS) return true;
    linked = true;
  }
  return linked && card.querySelector("h2, h3, h4, h5, h6") !== null;
}

/** The cards of `el` when its children are a run of linked cards of one shape, or null. */
export function cardsOf(el: DomElement, minCards: number): CardList | null {
  // Children are counted up to the minimum first: most elements have few, and listing them costs more.
  let n = 0;
  for (let c = el.firstElementChild; c && n < minCards; c = c.nextElementSibling) n++;
  if (n < minCards) return null;
  const children = el.children;
  if (DISCUSSION_ATTR.test(labelOf(el))) return null;
  const shapeAt = Array.from(children, shapeOf);
  const [shape, count] = mostCommon(shapeAt);
  if (count < minCards || count < children.length * SAME_SHAPE_SHARE) return null;
  if (INLINE_TAG.test(shape.slice(0, shape.indexOf(".")))) return null;
  let cards = 0;
  let chars = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (shapeAt[i] !== shape) continue;
    const length = textLength(child);
    if (length < MIN_CARD_CHARS || length > MAX_CARD_CHARS || !hasTitle(child)) continue;
    cards++;
    chars += length;
  }
  if (cards < minCards || cards < count * SAME_SHAPE_SHARE || chars < cards * MIN_MEAN_CARD_CHARS)
    return null;
  return { node: el, cards, chars };
}
