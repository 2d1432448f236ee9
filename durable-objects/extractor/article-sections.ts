/**
 * Rules for articles read by Readability: figures that hold text (tables, quotes, code) stay
 * while picture captions go.
 */

import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** What makes a `<figure>` part of the text rather than a picture with its caption. */
const TEXT_FIGURE = "table, blockquote, pre";

/** Removes captions, dates and picture figures; a figure holding a table, a quote or code is text and stays. A thread's dates say when each post was written: they stay (`keepDates`). */
export function removeFigures(root: DomElement, keepDates = false): void {
  for (const el of [...root.querySelectorAll("figure")]) if (!el.querySelector(TEXT_FIGURE)) el.remove();
  for (const el of [...root.querySelectorAll(keepDates ? "figcaption" : "figcaption, time")]) el.remove();
}

/** Blocks of readers' comments, by their class/id words. */
const COMMENTS = "[id*='comment' i], [class*='comment' i], [id*='respond' i], [class*='replies' i]";

/** The text of a region outside its comment blocks: what the region adds to an article must be more article, not readers' replies. */
export function textBesideComments(region: DomElement, chars: number): number {
  let comments = 0;
  const counted: DomElement[] = [];
  for (const el of region.querySelectorAll(COMMENTS)) {
    if (counted.some((c) => isWithin(el, c))) continue;
    counted.push(el);
    comments += textLength(el);
  }
  return chars - comments;
}

function isWithin(el: DomElement, root: DomElement): boolean {
  for (let n: DomElement | null = el; n; n = n.parentElement) if (n === root) return true;
  return false;
}
