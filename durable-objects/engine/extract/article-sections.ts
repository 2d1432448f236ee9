/**
 * Rules for articles read by Readability: figures that hold text (tables, quotes, code) stay
 * while picture captions go.
 */

import { shortText, textLength } from "./dom-text";
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

/** A heading that counts readers' comments ("10 comments:", "Comments (4)"). */
const COMMENT_COUNT = /^(\d+ (comments?|responses|replies):?|comments? \(\d+\))$/i;

/**
 * Removes the readers' comments from a page read from its region: a block labelled as comments
 * (class/id word) that opens with a heading counting them is never the story, however long the
 * thread under it (the article cleanup cuts such tails only while they are short).
 */
export function removeCountedComments(root: DomElement): void {
  for (const heading of [...root.querySelectorAll("h2, h3, h4, h5, h6")]) {
    if (!isWithin(heading, root) || !COMMENT_COUNT.test((shortText(heading, 40) ?? "").trim())) continue;
    for (let el = heading.parentElement; el && el !== root; el = el.parentElement)
      if (el.matches(COMMENTS)) {
        el.remove();
        break;
      }
  }
}

function isWithin(el: DomElement, root: DomElement): boolean {
  for (let n: DomElement | null = el; n; n = n.parentElement) if (n === root) return true;
  return false;
}
