/**
 * Cleanup of the article Readability picked: junk-labelled blocks and picture figures, the
 * repeated title and link lists.
 */
import { inCode } from "./code-blocks";
import { labelOf } from "./dom-shape";
import { isShortControl, labelNames } from "./junk-labels";
import type { PageKind } from "./page-kind";
import { passOn } from "./passes";
import { ARTICLE_JUNK_ATTR, FORUM_POST_ATTR, JUNK_ATTR } from "./vocabulary/class-words";
import { lazyTextLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A list whose text is at least this share links is a link list (related stories, tags). */
export const LINK_LIST_DENSITY = 0.7;
/** An article holding this many link lists is an index: its lists are its content. */
export const INDEX_LISTS = 8;

/** Whether `el` is still inside `root` (the article root is detached, so isConnected cannot tell). */
export const isInside = (el: DomElement, root: DomElement) => root.contains(el);

function linkDensity(el: DomElement, length: number): number {
  let linked = 0;
  for (const a of el.querySelectorAll("a")) linked += (a.textContent ?? "").length;
  return length === 0 ? 0 : linked / length;
}

/** Removes the title heading and link lists. */
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
}

/** A junk-labelled block inside the article is removed when it holds less than this share of its text. */
export const JUNK_SHARE = 0.3;

/** Removes the junk-labelled blocks and the picture figures of Readability's article. */
export function removeArticleJunk(root: DomElement, kind: PageKind): void {
  if (passOn("article-junk")) removeJunkLabelled(root, kind);
  removeFigures(root, kind === "forum");
}

/** What makes a `<figure>` part of the text rather than a picture with its caption. */
const TEXT_FIGURE = "table, blockquote, pre";

/** Removes captions, dates and picture figures; a figure holding a table, a quote or code is text and stays. A thread's dates say when each post was written: they stay (`keepDates`). */
function removeFigures(root: DomElement, keepDates: boolean): void {
  for (const el of [...root.querySelectorAll("figure")]) if (!el.querySelector(TEXT_FIGURE)) el.remove();
  for (const el of [...root.querySelectorAll(keepDates ? "figcaption" : "figcaption, time")]) el.remove();
}

/** Removes the junk-labelled blocks of an article holding under JUNK_SHARE of its text. */
function removeJunkLabelled(root: DomElement, kind: PageKind): void {
  const total = lazyTextLength(root, (el) => (el.textContent ?? "").length);
  for (const el of [...root.querySelectorAll("[class], [id]")]) {
    if (!isInside(el, root)) continue;
    const label = labelOf(el);
    const junk = labelNames(JUNK_ATTR, label) || (kind === "article" && ARTICLE_JUNK_ATTR.test(label));
    if (!(junk || isShortControl(el, label)) || inCode(el)) continue;
    if (kind === "forum" && FORUM_POST_ATTR.test(label)) continue;
    if ((el.textContent ?? "").length < total() * JUNK_SHARE) el.remove();
  }
}
