/**
 * Repeated card lists: the content of listings (blog indexes, directories, search results, job
 * boards) and collections (category grids). One node holds one card; the content is the run of
 * sibling cards that share one structure, each with a link and a title.
 */

import { labelOf, shapeOf } from "./dom-shape";
import { foldText, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { mainRegion, type Region } from "./region";

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

/** Class/id words of a discussion (comments, replies, reviews): its posts are not cards. */
const DISCUSSION_ATTR = /comment|repl(y|ies)|review|discussion/i;

/** The cards of `el` when its children are a run of linked cards of one shape, or null. */
function cardsOf(el: DomElement, minCards: number): CardList | null {
  // Children are counted up to the minimum first: most elements have few, and listing them costs more.
  let n = 0;
  for (let c = el.firstElementChild; c && n < minCards; c = c.nextElementSibling) n++;
  if (n < minCards) return null;
  const children = el.children;
  if (DISCUSSION_ATTR.test(labelOf(el))) return null;
  const shapes = new Map<string, number>();
  for (let i = 0; i < children.length; i++) {
    const shape = shapeOf(children[i]);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  let shape = "";
  let count = 0;
  for (const [s, n] of shapes) if (n > count) [shape, count] = [s, n];
  if (count < minCards || count < children.length * SAME_SHAPE_SHARE) return null;
  if (INLINE_TAG.test(shape.slice(0, shape.indexOf(".")))) return null;
  let cards = 0;
  let chars = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (shapeOf(child) !== shape) continue;
    const length = textLength(child);
    if (length < MIN_CARD_CHARS || length > MAX_CARD_CHARS || !hasTitle(child)) continue;
    cards++;
    chars += length;
  }
  if (cards < minCards || cards < count * SAME_SHAPE_SHARE || chars < cards * MIN_MEAN_CARD_CHARS)
    return null;
  return { node: el, cards, chars };
}

/** The card list under `root` holding the most text, or null when it has none. */
export function dominantCardList(root: DomElement, minCards = MIN_CARDS): CardList | null {
  let best: CardList | null = cardsOf(root, minCards);
  for (const el of root.querySelectorAll("*")) {
    const list = cardsOf(el, minCards);
    if (list && (!best || list.chars > best.chars)) best = list;
  }
  return best;
}

/** A page labelled an article is read as a listing when its cards hold at least this many times Readability's text. */
export const CARDS_OVER_ARTICLE = 1;
/** ...and when it has at least this many cards (an index page lists many; an article's "read next" strip a few). */
export const MIN_LISTING_CARDS = 8;
/** Text before the cards up to this long is the listing's intro; longer, it is an article the cards follow. */
export const MAX_INTRO_CHARS = 1500;
/** Characters of the article's opening looked up in the region's text. */
const PROBE_CHARS = 80;

/** Characters of text in `root` before `el` (the text of every earlier sibling of `el` and of its ancestors). */
function textBefore(el: DomElement, root: DomElement): number {
  let n = 0;
  for (let node: DomElement | null = el; node && node !== root; node = node.parentElement)
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling) n += textLength(s) + 1;
  return n;
}

/**
 * The main region of a page that calls itself an article (many CMSs print `og:type=article` on
 * every page) when that region is a listing: a run of many cards holding more text than the
 * article Readability found, which is one card, a few of them or the intro. Null for a real
 * article: one Readability found outside the region, or before the cards and longer than an
 * intro (the cards are "read next"), or after them (they are teasers above it).
 */
export function listingRegion(body: DomElement, article: DomElement): Region | null {
  const articleText = foldText(article.textContent ?? "");
  const region = mainRegion(body, false);
  const list = dominantCardList(region.node, MIN_LISTING_CARDS);
  if (!list || list.chars < articleText.length * CARDS_OVER_ARTICLE) return null;
  const start = foldText(region.node.textContent ?? "").indexOf(articleText.slice(0, PROBE_CHARS));
  if (start < 0) return null;
  const listStart = textBefore(list.node, region.node);
  const end = start + articleText.length;
  if (start >= listStart + list.chars) return null;
  if (end <= listStart && articleText.length > MAX_INTRO_CHARS) return null;
  return region;
}
