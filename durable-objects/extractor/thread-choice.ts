import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { postsIn, type Thread } from "./post-lists";

/** Readability's article misses the thread when it holds under this share of its posts. */
export const THREAD_COVER_SHARE = 0.7;

/** The element's text with its whitespace runs squashed (as thread probes are taken). */
const squashed = (el: DomElement) => (el.textContent ?? "").replace(/\s+/g, " ");

/** Whether Readability's article misses a thread of posts (one post, a summary box) that the region holds. */
export function missesThread(thread: Thread, article: DomElement, region: DomElement): boolean {
  const inArticle = postsIn(thread, squashed(article));
  return (
    inArticle < thread.probes.length * THREAD_COVER_SHARE && postsIn(thread, squashed(region)) > inArticle
  );
}

/** A table or ordered list holding at least this share of Readability's article makes the article a list (a ranked table). */
export const TABLE_ARTICLE_SHARE = 0.6;

/**
 * Whether Readability's article is a table or an ordered list (a ranked list of items) rather
 * than a post: the thread the region adds is then readers' comments under the list (or under its
 * items), not the page. Cost: one table/list query of the article.
 */
export function isTableArticle(article: DomElement, chars: number): boolean {
  for (const table of article.querySelectorAll("table, ol"))
    if (textLength(table) >= chars * TABLE_ARTICLE_SHARE) return true;
  return false;
}
