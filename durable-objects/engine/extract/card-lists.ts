/**
 * Repeated card lists: the content of listings (blog indexes, directories, search results, job
 * boards) and collections (category grids). One node holds one card; the content is the run of
 * sibling cards that share one structure, each with a link and a title.
 */

import { labelOf, shapeOf } from "./dom-shape";
import { foldText, textLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { ANY_ELEMENT, type BodyWalk, elementsOf } from "./page-walk";
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
export function cardsOf(el: DomElement, minCards: number): CardList | null {
  // Children are counted up to the minimum first: most elements have few, and listing them costs more.
  let n = 0;
  for (let c = el.firstElementChild; c && n < minCards; c = c.nextElementSibling) n++;
  if (n < minCards) return null;
  const children = el.children;
  if (DISCUSSION_ATTR.test(labelOf(el))) return null;
  const shapes = new Map<string, number>();
  const shapeAt: string[] = [];
  for (let i = 0; i < children.length; i++) {
    const shape = shapeOf(children[i]);
    shapeAt.push(shape);
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

/** The card list under `root` holding the most text, or null when it has none; `walk` as for `elementsOf`. */
export function dominantCardList(root: DomElement, minCards = MIN_CARDS, walk?: BodyWalk): CardList | null {
  let best: CardList | null = cardsOf(root, minCards);
  for (const el of elementsOf(root, ANY_ELEMENT, walk)) {
    const list = cardsOf(el, minCards);
    if (list && (!best || list.chars > best.chars)) best = list;
  }
  return best;
}

/** A page labelled an article is read as a listing when its cards hold at least this many times Readability's text. */
export const CARDS_OVER_ARTICLE = 1;
/** ...and when it has at least this many cards (an index page lists many; an article's "read next" strip a few). */
export const MIN_LISTING_CARDS = 8;
/** Below an intro (what Readability took), the cards need only this share of its text: titles alone are short. */
export const INTRO_CARDS_SHARE = 0.5;
/** Text before the cards up to this long is the listing's intro; longer, it is an article the cards follow. */
export const MAX_INTRO_CHARS = 1500;
/** Characters of the article's opening looked up in the region's text. */
const PROBE_CHARS = 80;

/** Class/id words of a carousel: its slides are teasers of other pages ("read next"), not an index. */
const CAROUSEL_ATTR = /(^|[\s_-])(carousel|slider|slick|swiper|glide|splide|flickity|owl)($|[\s_-])/i;
/** How many ancestors of a card list are searched for a carousel's label. */
const CAROUSEL_DEPTH = 3;

/** Whether the card list sits in a carousel (its own label or one of its nearest ancestors'). */
function inCarousel(list: DomElement): boolean {
  let n: DomElement | null = list;
  for (let i = 0; n && i <= CAROUSEL_DEPTH; i++, n = n.parentElement)
    if (CAROUSEL_ATTR.test(labelOf(n))) return true;
  return false;
}

/**
 * Where the article's text starts in the region's text, or -1: found by its opening, or else by its
 * first paragraph when the region holds it once (the cleanup of the article may have joined its
 * title to the text under it).
 */
function articleStart(regionText: string, articleText: string, article: DomElement): number {
  const start = regionText.indexOf(articleText.slice(0, PROBE_CHARS));
  if (start >= 0) return start;
  for (const p of article.querySelectorAll("p")) {
    const probe = textOf(p).slice(0, PROBE_CHARS);
    if (probe.length < PROBE_CHARS) continue;
    const at = regionText.indexOf(probe);
    // A paragraph the region prints twice (a teaser above the article) does not place it.
    if (at < 0 || regionText.includes(probe, at + 1)) return -1;
    return Math.max(0, at - Math.max(0, articleText.indexOf(probe)));
  }
  return -1;
}

/** An intro is right above the cards: at most this many characters of text between them. */
export const INTRO_GAP_CHARS = 80;
/** Readability's article holding at least this many of the cards took part of the list, not one post shown in it. */
export const MIN_SPANNED_CARDS = 2;

/** Characters of a card's title looked up in the article's text, at most and at least (a section's one-word heading counts). */
const CARD_PROBE_CHARS = 40;
const MIN_HELD_TITLE_CHARS = 5;

/** A card's title: its first heading, else its first link long enough to be one, else its text. */
function cardTitle(card: DomElement): string {
  const heading = card.querySelector("h2, h3, h4, h5, h6");
  if (heading) return textOf(heading);
  for (const a of card.querySelectorAll("a")) {
    const text = textOf(a);
    if (text.length >= MIN_TITLE_CHARS) return text;
  }
  return textOf(card);
}

/** How many of the list's cards Readability's article holds (their title is in its text). */
function cardsHeld(list: DomElement, articleText: string): number {
  let n = 0;
  for (let c = list.firstElementChild; c && n < MIN_SPANNED_CARDS; c = c.nextElementSibling) {
    const opening = cardTitle(c).slice(0, CARD_PROBE_CHARS);
    if (opening.length >= MIN_HELD_TITLE_CHARS && articleText.includes(opening)) n++;
  }
  return n;
}

/** Whether the list's cards are `<article>` elements (each its own post: the page is their archive, whatever its intro's length). */
function cardsAreArticles(list: DomElement): boolean {
  let articles = 0;
  for (let c = list.firstElementChild; c; c = c.nextElementSibling) if (c.tagName === "ARTICLE") articles++;
  return articles >= MIN_LISTING_CARDS && articles >= list.children.length * SAME_SHAPE_SHARE;
}

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
 * intro (the cards are "read next"), or after them (they are teasers above it). `cardsArePage`
 * says the article was the intro or some of the cards (not in a carousel): the region is the page.
 * `story`: the page's structured data states it is a story (its text before the cards is the story).
 */
export function listingRegion(
  body: DomElement,
  article: DomElement,
  story = false,
): (Region & { cardsArePage: boolean }) | null {
  const articleText = foldText(article.textContent ?? "");
  const region = mainRegion(body, false);
  const list = dominantCardList(region.node, MIN_LISTING_CARDS);
  if (!list || list.chars < articleText.length * INTRO_CARDS_SHARE) return null;
  const regionText = foldText(region.node.textContent ?? "");
  const start = articleStart(regionText, articleText, article);
  if (start < 0) return null;
  const listStart = textBefore(list.node, region.node);
  const end = start + articleText.length;
  if (start >= listStart + list.chars) return null;
  const intro = end <= listStart;
  // On a page whose structured data states a story, a story above the cards is no intro, however short.
  if (intro && (story || (articleText.length > MAX_INTRO_CHARS && !cardsAreArticles(list.node)))) return null;
  // Cards of a title each may hold less text than the intro above them: the intro is still not the page.
  if (!intro && list.chars < articleText.length * CARDS_OVER_ARTICLE) return null;
  // Readability's article is the intro right above the cards, or several of the cards: the cards are the page.
  const page = intro
    ? listStart - end <= INTRO_GAP_CHARS
    : start >= listStart &&
      end <= listStart + list.chars + PROBE_CHARS &&
      cardsHeld(list.node, articleText) >= MIN_SPANNED_CARDS;
  return { ...region, cardsArePage: page && !inCarousel(list.node) };
}
