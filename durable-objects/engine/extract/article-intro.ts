/**
 * A story's introduction that Readability left above its article. Readability takes the block
 * that scores best and those of its siblings that score near it; a story whose opening
 * paragraphs stand in their own block above the body (a listicle's intro over its slides, a
 * review's summary over its sections) loses them: the block scores too little beside the body.
 * The paragraphs the page printed between its title and the article's first paragraph, two or
 * more of prose in one block standing right above the body, are put back at the article's start.
 * Cost, on pages that state they are articles: one pass over the walked body elements for its
 * paragraphs before Readability; after it, one paragraph query over the article and a look back
 * over at most 15 paragraphs; the article's text is read only when an introduction is found.
 */
import { isInside } from "./article-cleanup";
import type { DomDocument, DomElement } from "./dom-types";
import { stillUnder } from "./page-walk";
import { foldText } from "./dom-text";

/** A paragraph this long (characters) is prose, not a caption or a line of chrome. */
const MIN_PARAGRAPH_CHARS = 150;
/** A paragraph whose text is this much link text is a teaser or a list of links, not prose. */
const MAX_LINK_SHARE = 0.3;
/** The introduction holds at least this many paragraphs of prose, in one block. */
const MIN_INTRO_PARAGRAPHS = 2;
/** How far back (paragraphs and titles, in document order) the introduction is looked for. */
const MAX_LOOKBACK = 15;
/** At most this many elements stand between the introduction's last paragraph and the article's first. */
const MAX_GAP_ELEMENTS = 100;
/** How many of the article's paragraphs are looked up in the walk for the first one the page printed. */
const MAX_TRIES = 5;
/** How much of a paragraph's opening is looked for in the article's text. */
const MAX_PROBE_CHARS = 80;

const isParagraph = (el: DomElement) => el.localName === "p";

/** The page's paragraphs and top titles as it printed them, and where each stood among its elements. */
export interface PrintedParagraphs {
  /** `<p>` and `<h1>` elements, in document order. */
  elements: DomElement[];
  /** Each one's place among the body's elements. */
  places: number[];
}

/**
 * The page's paragraphs and top titles (`<p>`, `<h1>`) in document order, as they stand before
 * Readability reads the page (`walked`: its body elements as a walk found them; those removed
 * since, hidden or chrome, are left out).
 */
export function printedParagraphs(
  walked: DomElement[] | null,
  document: DomDocument,
): PrintedParagraphs | null {
  if (!walked) return null;
  const out: PrintedParagraphs = { elements: [], places: [] };
  for (let i = 0; i < walked.length; i++) {
    const el = walked[i];
    if ((el.localName === "p" || el.localName === "h1") && stillUnder(el, document)) {
      out.elements.push(el);
      out.places.push(i);
    }
  }
  return out;
}

/** Whether the paragraph is prose of its own: long enough, mostly not links, not inside a link. */
function isProse(p: DomElement): boolean {
  const text = (p.textContent ?? "").trim();
  if (text.length < MIN_PARAGRAPH_CHARS) return false;
  let links = 0;
  for (const a of p.querySelectorAll("a")) links += (a.textContent ?? "").length;
  if (links > text.length * MAX_LINK_SHARE) return false;
  for (let n = p.parentNode as DomElement | null; n?.localName; n = n.parentNode as DomElement | null)
    if (n.localName === "a") return false;
  return true;
}

/** How many of a paragraph's ancestors are read for a junk label. */
const LABEL_DEPTH = 3;

/** Whether the paragraph or one of its nearest ancestors is labelled as junk (a disclaimer, an author box). */
function isJunkLabelled(p: DomElement, isJunk: (el: DomElement) => boolean): boolean {
  let n: DomElement | null = p;
  for (let depth = 0; n?.localName && depth <= LABEL_DEPTH; depth++, n = n.parentNode as DomElement | null)
    if (n.hasAttributes() && isJunk(n)) return true;
  return false;
}

/**
 * Puts back at the start of Readability's article the paragraphs of prose the page printed right
 * before the article's first paragraph, when they are two or more in one block (`printed`: what
 * `printedParagraphs` read before Readability). Nothing happens when the article's paragraphs are
 * not the ones read then (Readability's retries parse the page again).
 */
export function restoreArticleIntro(
  article: DomElement,
  printed: PrintedParagraphs | null,
  isJunk: (el: DomElement) => boolean,
): void {
  if (!printed) return;
  // The article's first paragraph of prose that the page printed as it is (Readability rebuilds some blocks).
  let at = -1;
  let tries = 0;
  for (const p of article.querySelectorAll("p")) {
    if (!isProse(p)) continue;
    at = printed.elements.indexOf(p);
    if (at >= 0 || ++tries >= MAX_TRIES) break;
  }
  if (at < 0) return;
  const intro: DomElement[] = [];
  let block: DomElement | null = null;
  let prose = 0;
  let titled = false;
  for (let i = at - 1; i >= 0 && i >= at - MAX_LOOKBACK; i--) {
    const el = printed.elements[i];
    if (el.localName === "h1") {
      titled = true;
      break;
    }
    if (!isParagraph(el) || isInside(el, article)) continue;
    const parent = el.parentNode as DomElement | null;
    const long = isProse(el);
    if (block && parent !== block) {
      // Prose of another block between the title and this one: this is not the story's opening.
      if (long) return;
      continue;
    }
    if (!block && !long) continue;
    // The opening stands right above the body: a block far before it (a gallery, a table of contents between) is something else.
    if (!block && printed.places[at] - printed.places[i] > MAX_GAP_ELEMENTS) return;
    if (isJunkLabelled(el, isJunk)) return;
    block = parent;
    intro.unshift(el);
    if (long) prose++;
  }
  if (!titled) return;
  if (prose < MIN_INTRO_PARAGRAPHS) return;
  // A paragraph the article already holds (Readability rebuilt it) or the page prints twice (one copy per layout) is not put back.
  const held = foldText(article.textContent ?? "");
  const seen = new Set<string>();
  const fresh = intro.filter((p) => {
    const text = foldText(p.textContent ?? "");
    if (seen.has(text)) return false;
    seen.add(text);
    return !held.includes(text.slice(0, MAX_PROBE_CHARS));
  });
  if (fresh.filter(isProse).length < MIN_INTRO_PARAGRAPHS) return;
  article.prepend(...fresh);
}
