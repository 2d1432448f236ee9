/**
 * Readability's article against the page's thread of posts. On a thread it often takes one post
 * or a summary box beside the posts; the region holding the posts then wins.
 */
import { labelOf } from "./dom-shape";
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

/** A story holds at least this many paragraphs... */
export const MIN_STORY_PARAGRAPHS = 3;
/** ... of at least this many characters each. */
export const MIN_STORY_PARAGRAPH_CHARS = 120;
/** Class/id words of a block of readers' comments (`commentlisting`, `comments-area`, `comment-list`). */
const COMMENTS_LABEL = /comment/i;

/** Whether el holds a run of MIN_STORY_PARAGRAPHS long paragraphs (a story, not a summary box). */
function isStory(el: DomElement): boolean {
  let paragraphs = 0;
  for (const p of el.querySelectorAll("p"))
    if (textLength(p) >= MIN_STORY_PARAGRAPH_CHARS && ++paragraphs >= MIN_STORY_PARAGRAPHS) return true;
  return false;
}

/**
 * Whether the region is the readers' comments under the story Readability took: the region is a
 * block labelled comments that does not hold the article, and the article is a story. Its
 * discussion then outweighs a news story without being the page. Cost: a label test, and a
 * paragraph query of the article only then.
 */
export function isCommentsBesideStory(region: DomElement, article: DomElement): boolean {
  if (!COMMENTS_LABEL.test(labelOf(region))) return false;
  const opening = squashed(article).trim().slice(0, 80);
  return !squashed(region).includes(opening) && isStory(article);
}
