/**
 * Who wrote each post of a thread, and when. Forums print the poster's name in a user card and
 * the date in a post header, beside the post's text; Readability drops both as chrome (short,
 * mostly links), and a thread read without them loses who answered whom. Each post's name and
 * date are moved into one line at the top of its text, where they stay with the post.
 */

import { shortText, textLength, textOf } from "./dom-text";
import type { DomElement, DomNode } from "./dom-types";
import { RELATIVE_DATE } from "./vocabulary/page-words";
import { AUTHOR_ATTR } from "./vocabulary/class-words";

/** A poster's name (with a badge or a title beside it at most) has no more than this many characters. */
export const MAX_NAME_CHARS = 40;
/** A post's date as printed (`Sep 21, 2024`, `January 11, 2025, 12:04am`, `2 hours ago`). */
export const MAX_DATE_CHARS = 40;
/** A post's own text under its microdata. */
const POST_TEXT = "[itemprop=text], [itemprop=articleBody]";
/** The post's text is the child block holding at least this share of the post's text (the card beside it holds less). */
export const BODY_SHARE = 0.5;
/** Elements a line is not put inside (text blocks, inline tags): it goes before them. */
const CLOSED_TAG = /^(P|PRE|BLOCKQUOTE|UL|OL|TABLE|H[1-6]|SPAN|A|B|I|EM|STRONG)$/;

interface MetaParent extends DomElement {
  append(...nodes: (DomNode | string)[]): void;
  before(...nodes: DomNode[]): void;
  ownerDocument: { createElement(tag: string): MetaParent };
}

const chars = (el: DomElement) => (el.textContent ?? "").length;

/** The block holding the post's text: its microdata text, else the child (and grandchild...) holding most of it. */
function bodyOf(post: DomElement): DomElement {
  const marked = post.querySelector(POST_TEXT);
  if (marked) return marked;
  let node = post;
  for (;;) {
    const total = chars(node);
    let next: DomElement | null = null;
    for (let c = node.firstElementChild; c; c = c.nextElementSibling)
      if (chars(c) >= total * BODY_SHARE && !CLOSED_TAG.test(c.tagName)) next = c;
    if (!next) return node;
    node = next;
  }
}

const within = (el: DomElement, block: DomElement) => {
  for (let n: DomElement | null = el; n; n = n.parentElement) if (n === block) return true;
  return false;
};

/** A date's label ("Posted", "Posted on", "(edited)") has at most this many characters beside the date. */
export const MAX_DATE_LABEL_CHARS = 20;

const LETTER = /\p{L}/u;

/**
 * Whether a wrapper holds, beside `inner`, no element with words but the poster's name again (`by
 * <strong>name</strong> » <time>`): only a label of its own text.
 */
function onlyLabelled(wrapper: DomElement, inner: DomElement, name: string): boolean {
  for (let c = wrapper.firstElementChild; c; c = c.nextElementSibling)
    if (c !== inner && LETTER.test(c.textContent ?? "") && textOf(c) !== name) return false;
  return true;
}

/**
 * The line a post's date is printed on outside its text: the date's outermost wrapper holding, beside
 * it, no more than a label of its own text (`Posted <time>`, a permalink around the date); the date
 * when it has none.
 */
function dateLineOf(date: DomElement, post: DomElement, body: DomElement, name: string): DomElement {
  const own = textLength(date);
  let line = date;
  for (let p = line.parentElement; p && p !== post && !within(body, p); p = p.parentElement) {
    if (textLength(p) - own > MAX_DATE_LABEL_CHARS || !onlyLabelled(p, line, name)) break;
    line = p;
  }
  return line;
}

/** The other prints of a post's date outside its text (a phone layout's copy of the post header). */
function dateCopies(date: DomElement, post: DomElement, body: DomElement): DomElement[] {
  const stamp = date.getAttribute("datetime");
  if (!stamp) return [];
  return [...post.querySelectorAll("time")].filter(
    (t) => t !== date && t.getAttribute("datetime") === stamp && !within(t, body),
  );
}

/** The first element outside the post's text that matches and has a short non-empty text. */
function firstShort(body: DomElement, found: Iterable<DomElement>, max: number) {
  for (const el of found) {
    if (within(el, body)) continue;
    const text = shortText(el, max);
    if (text) return el;
  }
  return null;
}

/** The poster's name: an `itemprop=author` item or an element labelled author/username/poster; its link when it has one. */
function authorOf(post: DomElement, body: DomElement): DomElement | null {
  const labelled = [...post.querySelectorAll("[itemprop~=author], [class], [id]")].filter(
    (el) =>
      /(^|\s)author(\s|$)/.test(el.getAttribute("itemprop") ?? "") ||
      AUTHOR_ATTR.test(el.getAttribute("class") ?? "") ||
      AUTHOR_ATTR.test(el.getAttribute("id") ?? ""),
  );
  const author = firstShort(body, labelled, MAX_NAME_CHARS);
  if (!author) return null;
  // The name (`itemprop=name`, else the longest link: an avatar link may show the name's initial) and its link.
  const named = author.querySelector("[itemprop~=name]");
  let best = named && shortText(named, MAX_NAME_CHARS) ? named : null;
  for (let n = best; n && n !== author; n = n.parentElement) if (n.tagName === "A") best = n;
  if (best) return best;
  let longest = 0;
  for (const a of author.querySelectorAll("a")) {
    const length = shortText(a, MAX_NAME_CHARS)?.length ?? 0;
    if (length > longest) [best, longest] = [a, length];
  }
  return best ?? author;
}

/** Moves each post's name and date, printed outside its text, into a line at the top of its text; returns the posts given a line. */
export function keepPostMeta(posts: DomElement[]): Set<DomElement> {
  const named = new Set<DomElement>();
  for (const post of posts) {
    const body = bodyOf(post);
    if (body === post) continue;
    // A name marked as the post's author leads the line; a date alone is left where it is.
    const author = authorOf(post, body);
    if (!author) continue;
    const date = firstShort(body, post.querySelectorAll("time"), MAX_DATE_CHARS);
    const target = body as MetaParent;
    const line = target.ownerDocument.createElement("p");
    line.append(author);
    // The date as text: the article's cleanup drops `<time>` elements (a story's dateline).
    if (date) {
      const printed = shortText(date, MAX_DATE_CHARS) ?? "";
      // A date told from now ("17 hours ago") is the day the page was fetched, not the post's.
      if (!RELATIVE_DATE.test(printed)) line.append(` · ${printed}`);
      // The date's label ("Posted") and its other prints go with it: the line says it once.
      const name = textOf(author);
      const copies = dateCopies(date, post, body).map((t) => dateLineOf(t, post, body, name));
      dateLineOf(date, post, body, name).remove();
      for (const copy of copies) copy.remove();
    }
    if (CLOSED_TAG.test(target.tagName)) target.before(line);
    else target.prepend(line);
    named.add(post);
  }
  return named;
}
