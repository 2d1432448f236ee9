/**
 * Cleanup of the article Readability picked: junk-labelled blocks and picture figures, the
 * repeated title, link lists, and the "more stories" tail that news pages append after the text.
 */
import { removeFigures } from "./article-sections";
import { inCode } from "./code-blocks";
import { isShortControl, junkLabel, labelNames } from "./junk-labels";
import type { PageKind } from "./page-kind";
import { passOn } from "./passes";
import { ARTICLE_JUNK_ATTR, FORUM_POST_ATTR, JUNK_ATTR } from "./vocabulary/class-words";
import { lazyTextLength, linkTextLength, shortText, textLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { PROSE_TAIL_HEADING, TAIL_HEADING } from "./vocabulary/page-words";

/** ... up to this share of the text. */
export const AUTHOR_TAIL_SHARE = 0.3;
/** A tail heading only cuts when what follows holds less than this share of the text. */
export const MAX_TAIL_SHARE = 0.5;
/** ... and what follows it is at least this share links, or less than PROSE_TAIL_SHARE of the text. */
export const TAIL_LINK_DENSITY = 0.3;
/** A tail of prose (comments, a sign-up pitch) is cut only when it is shorter than this share of the text. */
export const PROSE_TAIL_SHARE = 0.1;
/** A tail heading is at most this long. */
export const MAX_TAIL_HEADING_CHARS = 60;
/** A list whose text is at least this share links is a link list (related stories, tags). */
export const LINK_LIST_DENSITY = 0.7;
/** An article holding this many link lists is an index: its lists are its content. */
export const INDEX_LISTS = 8;

/** Whether `el` is still inside `root` (the article root is detached, so isConnected cannot tell). */
export function isInside(el: DomElement, root: DomElement): boolean {
  for (let n: DomElement | null = el; n; n = n.parentElement) if (n === root) return true;
  return false;
}

function removeFollowing(el: DomElement, root: DomElement): void {
  let node: DomElement | null = el;
  while (node && node !== root) {
    while (node.nextElementSibling) node.nextElementSibling.remove();
    node = node.parentElement;
  }
  el.remove();
}

/** What follows `el` up to the root: its text length and the length of its link text. */
function following(el: DomElement, root: DomElement): { text: number; links: number } {
  let text = 0;
  let links = 0;
  for (let n: DomElement | null = el; n && n !== root; n = n.parentElement) {
    for (let s = n.nextElementSibling; s; s = s.nextElementSibling) {
      text += textLength(s);
      links += linkTextLength(s);
    }
  }
  return { text, links };
}

function cutTail(root: DomElement, total: () => number): void {
  for (const el of [...root.querySelectorAll("h2, h3, h4, h5, h6, strong, b, p, div, span, header")]) {
    if (!isInside(el, root) || el.querySelector("a, p")) continue;
    const text = shortText(el, MAX_TAIL_HEADING_CHARS) ?? "";
    if (text.length === 0 || text.length > MAX_TAIL_HEADING_CHARS || !TAIL_HEADING.test(text)) continue;
    const after = following(el, root);
    // A tail is links to other pages, or short; prose after the heading is more of the article.
    const prose = PROSE_TAIL_HEADING.test(text) ? AUTHOR_TAIL_SHARE : PROSE_TAIL_SHARE;
    const tail = after.links >= after.text * TAIL_LINK_DENSITY || after.text < total() * prose;
    if (after.text < total() * MAX_TAIL_SHARE && tail) {
      removeFollowing(el, root);
      return;
    }
  }
}

function linkDensity(el: DomElement, length: number): number {
  let linked = 0;
  for (const a of el.querySelectorAll("a")) linked += (a.textContent ?? "").length;
  return length === 0 ? 0 : linked / length;
}

/** Removes the title heading, link lists and the related-stories tail. */
export function cleanArticle(root: DomElement, title: string): void {
  const total = (root.textContent ?? "").length;
  const normTitle = title.replace(/\s+/g, " ").trim().toLowerCase();
  const firstHeading = root.querySelector("h1, h2");
  const headingText = firstHeading ? textOf(firstHeading).toLowerCase() : "";
  if (headingText && normTitle.startsWith(headingText)) firstHeading?.remove();
  for (const el of [...root.querySelectorAll("h1")]) el.remove();
  const linkLists = [...root.querySelectorAll("ul, ol")].filter((list) => {
    if (!isInside(list, root)) return false;
    const length = (list.textContent ?? "").length;
    return length < total * 0.3 && linkDensity(list, length) >= LINK_LIST_DENSITY;
  });
  // Many lists of links are the page itself (an index of forms, resources or chapters), not a
  // story's related links: an article closes with one or two such lists, not eight.
  if (linkLists.length < INDEX_LISTS && passOn("link-lists")) for (const list of linkLists) list.remove();
  if (passOn("related-tail")) cutTail(root, lazyTextLength(root));
}

/** A junk-labelled block inside the article is removed when it holds less than this share of its text. */
export const JUNK_SHARE = 0.3;

/** Removes the junk-labelled blocks and the picture figures of Readability's article. */
export function removeArticleJunk(root: DomElement, kind: PageKind): void {
  if (passOn("article-junk")) removeJunkLabelled(root, kind);
  removeFigures(root, kind === "forum");
}

/** Removes the junk-labelled blocks of an article holding under JUNK_SHARE of its text. */
function removeJunkLabelled(root: DomElement, kind: PageKind): void {
  const total = lazyTextLength(root, (el) => (el.textContent ?? "").length);
  for (const el of [...root.querySelectorAll("[class], [id]")]) {
    if (!isInside(el, root)) continue;
    const label = junkLabel(el);
    const junk = labelNames(JUNK_ATTR, label) || (kind === "article" && ARTICLE_JUNK_ATTR.test(label));
    if (!(junk || isShortControl(el, label)) || inCode(el)) continue;
    if (kind === "forum" && FORUM_POST_ATTR.test(label)) continue;
    if ((el.textContent ?? "").length < total() * JUNK_SHARE) el.remove();
  }
}
