/**
 * A thread's chrome around its posts: what a forum prints before the first post (crumbs, "Start
 * new topic", a notice, "Recommended Posts", the counts of replies and views) and after the last
 * (the pager, "More topics from this board", "Related discussions", the reply prompt). Found by
 * position and shape, not words: blocks beside the run of posts, on the way up from the posts to
 * the page, that are lists of links or short undated lines holding no paragraph of prose.
 */
import { isInside } from "./article-cleanup";
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { postRuns } from "./post-lists";
import { DATE_LIKE } from "./vocabulary/page-words";

/** A block beside the posts goes when at least this share of its text is link text (a list of links)... */
export const EDGE_LINK_SHARE = 0.5;
/** ... or when it is an undated line shorter than this (a count, a notice, a control's label). */
export const EDGE_SHORT_CHARS = 120;
/** A paragraph this long is someone's writing (an opening post outside the run), never chrome. */
const PROSE_CHARS = 200;

/** Whether the block holds the thread's title or a paragraph someone wrote. */
function holdsWriting(el: DomElement): boolean {
  if (el.matches("h1, p, blockquote, pre")) return el.localName === "h1" || textLength(el) >= PROSE_CHARS;
  if (el.querySelector("h1")) return true;
  return [...el.querySelectorAll("p, blockquote, pre")].some((p) => textLength(p) >= PROSE_CHARS);
}

/** A block beside the posts is never chrome when it holds at least this share of the posts' text (a list the page is about). */
export const EDGE_MAX_SHARE = 0.5;

/** Whether a block beside the posts (`thread` characters long) is the thread's chrome: a list of links, or a short undated line. */
function isEdgeChrome(el: DomElement, thread: number): boolean {
  const length = textLength(el);
  if (length === 0 || length >= thread * EDGE_MAX_SHARE || holdsWriting(el)) return false;
  if (linkTextLength(el) >= length * EDGE_LINK_SHARE) return true;
  return length < EDGE_SHORT_CHARS && !el.querySelector("time") && !DATE_LIKE.test(el.textContent ?? "");
}

/**
 * Removes the chrome beside the longest thread of posts in `root` (the chosen content), from the
 * posts' parent up to `root`: at each level, the blocks before the one holding the first post and
 * after the one holding the last. `dated`: only a run of dated posts is a thread (a page that
 * does not say it is a forum). Returns how many blocks went.
 */
export function removeThreadEdges(root: DomElement, dated = false): number {
  let posts: DomElement[] = [];
  for (const run of postRuns(root, dated)) if (run.length > posts.length) posts = run;
  const first = posts[0];
  const last = posts[posts.length - 1];
  if (!first || !isInside(first, root)) return 0;
  let removed = 0;
  const thread = posts.reduce((n, post) => n + textLength(post), 0);
  const drop = (el: DomElement | null, next: (el: DomElement) => DomElement | null) => {
    const siblings: DomElement[] = [];
    for (let n = el; n; n = next(n)) siblings.push(n);
    const chrome = siblings.filter((n) => isEdgeChrome(n, thread));
    for (const n of chrome) n.remove();
    removed += chrome.length;
  };
  for (let [head, tail] = [first, last]; head.parentElement && head !== root; ) {
    drop(head.previousElementSibling, (n) => n.previousElementSibling);
    drop(tail.nextElementSibling, (n) => n.nextElementSibling);
    const up = head.parentElement;
    if (up === root) break;
    [head, tail] = [up, up];
  }
  return removed;
}
