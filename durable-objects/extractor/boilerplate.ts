/**
 * Boilerplate removed from the page before Readability reads it: the widgets of one page type (reviews and
 * recommendations on a product page, user panels on a forum) and a thread's per-post controls.
 */
import { passOn } from "./passes";
import { isInside } from "./article-cleanup";
import { lazyTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { removeEditNotes } from "./edit-notes";
import type { PageKind } from "./page-kind";
import { type BodyWalk, elementsOf, LABELLED } from "./page-walk";
import { removePostComments } from "./post-comments";
import { removeRepeatedControls } from "./post-lists";
import { FORUM_JUNK_ATTR, PRODUCT_JUNK_ATTR, SMALL_PRINT_ATTR } from "./vocabulary/class-words";

/** A page-type widget is removed unless it holds at least this share of the content's text. */
export const KIND_JUNK_SHARE = 0.3;

function removeLabelled(root: DomElement, labelled: DomElement[], pattern: RegExp, share: number): void {
  const total = lazyTextLength(root);
  for (const el of labelled) {
    // The class and the id are tested apart (no pattern here spans the space a joined label puts between them).
    const named = pattern.test(el.getAttribute("class") ?? "") || pattern.test(el.getAttribute("id") ?? "");
    if (!named || !isInside(el, root) || el.querySelector("main, article, h1")) continue;
    if (textLength(el) < (total() || 1) * share) el.remove();
  }
}

/**
 * Removes the widgets of the page's type and a thread's controls from the content; returns whether
 * the page shows a thread of posts. `walk` as for `elementsOf`.
 */
export function removeBoilerplate(root: DomElement, kind: PageKind, walk?: BodyWalk): boolean {
  const labelled = () => elementsOf(root, LABELLED, walk);
  if (kind === "product" && passOn("kind-widgets"))
    removeLabelled(root, labelled(), PRODUCT_JUNK_ATTR, KIND_JUNK_SHARE);
  // A page of no stated type (a shop's, a bank's) keeps no small print.
  if (kind === "other" && passOn("kind-widgets"))
    removeLabelled(root, labelled(), SMALL_PRINT_ATTR, KIND_JUNK_SHARE);
  if (kind === "forum" && passOn("kind-widgets"))
    removeLabelled(root, labelled(), FORUM_JUNK_ATTR, KIND_JUNK_SHARE);
  // A Q&A page's question and answers are the content, not the comments under them.
  if (kind === "forum" && passOn("qa-comments")) removePostComments(root);
  // A page that does not say it is a forum shows a thread only by its dated posts.
  const posts =
    (kind === "forum" || kind === "other") && passOn("post-controls")
      ? removeRepeatedControls(root, kind === "other", labelled())
      : null;
  // A date's "(edited)" mark is no part of the post.
  if (posts && passOn("edit-notes")) removeEditNotes(posts);
  return posts !== null;
}
