/**
 * The opening of a page built of like sections: a page builder prints the intro in one section
 * and the body in the next ones, each section the same block (`div.container`,
 * `section.rich-text-section`). Readability takes the densest section and looks for more of the
 * article only among its top candidate's siblings, so an intro printed in an earlier section of
 * the same shape one or two levels up is left in the page. Those earlier sections of prose are
 * the page's opening and are read before the article. So are the sections of prose beside the
 * top candidate, before it, that Readability's sibling pass weighed too low, when they hold a
 * title (a service page's title block) or are built like the block it took.
 */
import { shapeOf } from "./dom-shape";
import { ELEMENT_NODE, foldedLength, foldText, linkTextLength, TEXT_NODE, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** How many levels are climbed from Readability's top candidate's parent (it, then its parent). */
export const OPENING_LEVELS = 2;
/** An opening section holds at least this many characters of text. */
export const MIN_OPENING_CHARS = 100;
/** An opening section is prose: at most this share of its text is links. */
export const MAX_OPENING_LINK_SHARE = 0.2;
/** The sections left beside the top candidate hold at most this share of the article's text together. */
export const MAX_EARLIER_SHARE = 0.5;
/** Characters of a section's longest text looked up in the article (a copy of it is no opening). */
const PROBE_CHARS = 60;

/** Tags that are never a section of the article (the page's chrome, a form). */
const CHROME_TAGS = /^(HEADER|FOOTER|NAV|ASIDE|FORM)$/;

/** The part of Readability 0.6.0 this reads (internal, so not typed). */
interface ReaderAncestors {
  _getNodeAncestors(node: DomElement, maxDepth?: number): DomElement[];
}

/**
 * Makes a Readability instance remember the parent of its final top candidate (once it has the
 * article, it asks for that node's ancestors with no depth; scoring asks with one) and returns a
 * reader of it. The node is still in the page only when that attempt's article is the one
 * returned. Cost: one assignment per call.
 */
export function rememberTopParent(reader: unknown): () => DomElement | null {
  const r = reader as ReaderAncestors;
  let last: DomElement | null = null;
  if (typeof r._getNodeAncestors !== "function") return () => null;
  const ancestors = r._getNodeAncestors.bind(r);
  r._getNodeAncestors = (node, maxDepth) => {
    if (maxDepth === undefined) last = node;
    return ancestors(node, maxDepth);
  };
  return () => last;
}

/** The parts of Readability 0.6.0 its sibling pass is read through: it logs each sibling it looks at and each it appends. */
interface ReaderLog {
  log(...args: unknown[]): void;
  REGEXPS?: { negative?: RegExp };
}

/** What Readability's sibling pass did in its last attempt (see `rememberSiblingPass`). */
export interface SiblingPass {
  /** The siblings it looked at before the first block it took, less those its negative words label. */
  earlier: DomElement[];
  /** The first block it took (the top candidate or an earlier sibling), or null. */
  first: DomElement | null;
}

/**
 * Makes a Readability instance remember, for its last attempt, the siblings of its top candidate
 * that its sibling pass looked at before the first block it appended, leaving out those labelled
 * with its own negative words (`contact`, `promo`, `banner`), and that first block; returns a
 * reader of them. Cost: one string comparison per log call.
 */
export function rememberSiblingPass(reader: unknown): () => SiblingPass {
  const r = reader as ReaderLog;
  const negative = r.REGEXPS?.negative;
  if (typeof r.log !== "function" || !negative) return () => ({ earlier: [], first: null });
  let earlier: DomElement[] = [];
  let first: DomElement | null = null;
  const log = r.log.bind(r);
  r.log = (...args) => {
    if (args[0] === "Starting grabArticle loop") [earlier, first] = [[], null];
    else if (args[0] === "Looking at sibling node:" && !first) earlier.push(args[1] as DomElement);
    else if (args[0] === "Appending node:" && !first) first = args[1] as DomElement;
    log(...args);
  };
  const labelled = (el: DomElement) =>
    negative.test(el.getAttribute("class") ?? "") || negative.test(el.getAttribute("id") ?? "");
  return () => ({ earlier: earlier.filter((el) => el !== first && !labelled(el)), first });
}

/** Whether a block is a section of prose: enough text, few links, no junk label, no chrome or form inside. */
function isProseSection(el: DomElement, isJunk: (el: DomElement) => boolean): boolean {
  if (CHROME_TAGS.test(el.tagName) || isJunk(el)) return false;
  const chars = textLength(el);
  if (chars < MIN_OPENING_CHARS || linkTextLength(el) > chars * MAX_OPENING_LINK_SHARE) return false;
  return el.querySelector("form, textarea, header, nav, footer") === null;
}

/** The start of the element's longest text node, folded. */
export function longestLine(el: DomElement): string {
  let longest = "";
  const walk = (n: DomElement) => {
    for (let c = n.firstChild as DomElement | null; c; c = c.nextSibling as DomElement | null) {
      if (c.nodeType === TEXT_NODE) {
        const text = c.textContent ?? "";
        if (text.length > longest.length) longest = text;
      } else if (c.nodeType === ELEMENT_NODE) walk(c);
    }
  };
  walk(el);
  return foldText(longest).slice(0, PROBE_CHARS);
}

/**
 * The earlier sections of prose, in page order, printed in the same shape (tag and first class
 * word, see `shapeOf`) as the block they precede, climbing from `parent` (Readability's top
 * candidate's parent, still in the page) OPENING_LEVELS levels, never above `body`. A section
 * whose longest line `article` already holds is a copy (another layout's) and is left out.
 * Cost: a shape test per earlier sibling of the two blocks climbed; a text walk only for siblings
 * of the same shape, and one read of the article's text when some are found.
 */
export function openingSections(
  parent: DomElement,
  body: DomElement,
  article: DomElement,
  isJunk: (el: DomElement) => boolean,
): DomElement[] {
  const found: DomElement[] = [];
  let node: DomElement = parent;
  for (let level = 0; level < OPENING_LEVELS && node !== body && node.parentElement; level++) {
    const shape = shapeOf(node);
    // A block with no class has no shape to repeat.
    if (!shape.endsWith(".")) {
      const earlier: DomElement[] = [];
      for (let s = node.previousElementSibling; s; s = s.previousElementSibling)
        if (shapeOf(s) === shape && isProseSection(s, isJunk)) earlier.unshift(s);
      found.unshift(...earlier);
    }
    node = node.parentElement;
  }
  if (!found.length) return found;
  const held = foldText(article.textContent ?? "");
  return found.filter((section) => !held.includes(longestLine(section)));
}

/** Whether a block has the shape (tag and first class word) of another; a block with no class has none. */
const sameShape = (a: DomElement, b: DomElement | null) =>
  b !== null && !shapeOf(a).endsWith(".") && shapeOf(a) === shapeOf(b);

/**
 * The sections of prose Readability's sibling pass left before the first block it took (`pass`)
 * that are still in `parent` and hold a title (`h1`, `h2`) or are built like that block (a run of
 * like sections whose first ones scored low), in page order, when together they hold at most
 * MAX_EARLIER_SHARE of the article's text (more is a page of sections, not an opening); a copy of
 * the article's text is left out. Cost: a few tests per remembered sibling; one read of the
 * article's text when any is left.
 */
export function leftEarlierSections(
  pass: SiblingPass,
  parent: DomElement,
  article: DomElement,
  isJunk: (el: DomElement) => boolean,
): DomElement[] {
  const left = pass.earlier.filter(
    (el) =>
      el.parentElement === parent &&
      (el.querySelector("h1, h2") !== null || sameShape(el, pass.first)) &&
      isProseSection(el, isJunk),
  );
  if (!left.length) return left;
  const held = foldText(article.textContent ?? "");
  const fresh = left.filter((section) => !held.includes(longestLine(section)));
  const chars = fresh.reduce((sum, section) => sum + textLength(section), 0);
  return chars <= foldedLength(held) * MAX_EARLIER_SHARE ? fresh : [];
}
