/**
 * The remarks under a question-and-answer page's posts: a Q&A page (schema.org QAPage) marks its question and
 * answers as `Question` and `Answer` items and the short comments readers leave under each as `Comment` items
 * inside them. The question and the answers are the content; the comments under them (requests for detail,
 * thanks, "does not work for me") are not, with their vote counts and the post's "Add a comment" control.
 * Comments on any other item (a thread's posts, a blog's comment list) are the content there and stay.
 */
import { isInside } from "./article-cleanup";
import { widenWhile } from "./dom-shape";
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { markupMay } from "./markup-hints";

/** A microdata type that is a post of a Q&A page. */
const QA_POST = /schema\.org\/(Question|Answer)$/i;
/** A microdata comment. */
const COMMENT = /schema\.org\/Comment$/i;
/** The markup names the type at all (the page is walked only then). */
const COMMENT_MARKUP = /schema\.org\/Comment/i;
/**
 * The comments' box grows to its parent while the parent holds at most this many characters beside
 * them (the "Add a comment" control, a separator), never to the post.
 */
export const COMMENT_BOX_EXTRA_CHARS = 40;

/** The item an element belongs to: its nearest ancestor that starts an item. */
const ownerItem = (el: DomElement) => el.parentElement?.closest("[itemscope]") ?? null;

/** The nearest element holding every one of `els`. */
function commonAncestor(els: DomElement[]): DomElement {
  let common = els[0];
  for (const el of els.slice(1))
    while (!isInside(el, common) && common.parentElement) common = common.parentElement;
  return common;
}

/** The comments of each Q&A post under root, by post (comments on comments are their parents' part). */
function commentsByPost(root: DomElement): Map<DomElement, DomElement[]> {
  const byPost = new Map<DomElement, DomElement[]>();
  for (const el of root.querySelectorAll("[itemtype]")) {
    if (!COMMENT.test(el.getAttribute("itemtype") ?? "")) continue;
    const owner = ownerItem(el);
    if (!owner || !QA_POST.test(owner.getAttribute("itemtype") ?? "")) continue;
    byPost.set(owner, [...(byPost.get(owner) ?? []), el]);
  }
  return byPost;
}

/** Removes the comments under a Q&A page's question and answers, with the box that holds them; returns how many posts lost theirs. */
export function removePostComments(root: DomElement): number {
  if (!markupMay(root, COMMENT_MARKUP)) return 0;
  const byPost = commentsByPost(root);
  for (const [post, comments] of byPost) {
    const box = commonAncestor(comments);
    if (box === post || !isInside(box, post)) continue;
    const inComments = comments.reduce((n, c) => n + textLength(c), 0);
    widenWhile(box, post, (up) => textLength(up) - inComments <= COMMENT_BOX_EXTRA_CHARS).remove();
  }
  return byPost.size;
}
