/**
 * Boilerplate removed from the page before Readability reads it: the widgets of one page type
 * (reviews and recommendations on a product page, user panels on a forum), a thread's per-post
 * controls, and the call to sign in and reply that closes a thread.
 */
import { passOn } from "./passes";
import { isInside } from "./article-cleanup";
import { lazyTextLength, linkTextLength, shortText, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { removeEditNotes } from "./edit-notes";
import type { PageKind } from "./page-kind";
import { type BodyWalk, elementsOf, LABELLED, SUBHEADINGS } from "./page-walk";
import { labelOf } from "./dom-shape";
import { removeRepeatedControls, type Thread, threadOf } from "./post-lists";
import { JOIN_HEADING } from "./vocabulary/page-words";
import { keepPostMeta, MAX_NAME_CHARS } from "./post-meta";
import {
  CUSTOMER_REVIEWS_ATTR,
  FORUM_JUNK_ATTR,
  POST_ATTR,
  POST_CHROME_ATTR,
  POSTER_CARD_ATTR,
  PRODUCT_JUNK_ATTR,
  SMALL_PRINT_ATTR,
} from "./vocabulary/class-words";

/** A junk-headed section is only removed when it holds less than this share of the content's text. */
export const JUNK_SECTION_SHARE = 0.4;

/** In a thread on a page of no stated type, a post's chrome block holds less than this share of the post's text. */
export const POST_CHROME_SHARE = 0.5;
/** A page-type widget is removed unless it holds at least this share of the content's text. */
export const KIND_JUNK_SHARE = 0.3;

const HEADING = /^H[1-6]$/;

function removeLabelled(root: DomElement, labelled: DomElement[], pattern: RegExp, share: number): void {
  const total = lazyTextLength(root);
  for (const el of labelled) {
    // The class and the id are tested apart (no pattern here spans the space a joined label puts between them).
    const named = pattern.test(el.getAttribute("class") ?? "") || pattern.test(el.getAttribute("id") ?? "");
    if (!named || !isInside(el, root)) continue;
    if (el.querySelector("main, article, h1")) continue;
    const length = textLength(el);
    if (length >= (total() || 1) * share) continue;
    el.remove();
  }
}

/** The post (a reply nested in it is a post of its own) that an element inside the thread's post belongs to. */
function ownPost(el: DomElement, post: DomElement): DomElement {
  let n = el.parentElement ?? post;
  while (n !== post && n.parentElement && !POST_ATTR.test(labelOf(n))) n = n.parentElement;
  return n;
}

/** The longest link of a block whose text could be a poster's name, or null. */
function nameLink(block: DomElement): DomElement | null {
  let best: DomElement | null = null;
  let longest = 0;
  for (const a of block.querySelectorAll("a")) {
    const length = shortText(a, MAX_NAME_CHARS)?.length ?? 0;
    if (length > longest) [best, longest] = [a, length];
  }
  return best;
}

/**
 * Removes the poster cards, signatures and action bars (POST_CHROME_ATTR) from the posts of a
 * thread found on a page of no stated type (phpBB's `postprofile`, a `signature`), each when it
 * holds less than POST_CHROME_SHARE of its own post's text. In a post whose name was not moved
 * into a line of its own (`named`, keepPostMeta), a card keeps its name link.
 */
export function removePostChrome(posts: DomElement[], named: Set<DomElement>): void {
  for (const post of posts)
    for (const el of post.querySelectorAll("[class], [id]")) {
      const chrome =
        POST_CHROME_ATTR.test(el.getAttribute("class") ?? "") ||
        POST_CHROME_ATTR.test(el.getAttribute("id") ?? "");
      if (!chrome || !el.isConnected || textLength(el) >= textLength(ownPost(el, post)) * POST_CHROME_SHARE)
        continue;
      const name = named.has(post) || !POSTER_CARD_ATTR.test(labelOf(el)) ? null : nameLink(el);
      if (name) el.replaceWith(name);
      else el.remove();
    }
}

/** A heading whose text is at least this share link text is an item's title. */
export const ITEM_TITLE_LINK_SHARE = 0.9;

/** Whether a heading is a link's title (a card's in a list of other pages), not a section's. */
function isItemTitle(h: DomElement): boolean {
  const length = textLength(h);
  return length > 0 && linkTextLength(h) >= length * ITEM_TITLE_LINK_SHARE;
}

/**
 * The outermost ancestor (below root) that the heading opens and that holds only that section.
 * The linked titles of the cards it lists ("Trending topics" over `<h3><a>` teasers, the heading
 * in a header of its own) are its items, not sections after it.
 */
function sectionOf(heading: DomElement, root: DomElement, limit: number): DomElement | null {
  let best: DomElement | null = null;
  for (let n = heading.parentElement; n && n !== root; n = n.parentElement) {
    const headings = n.querySelectorAll("h1, h2, h3, h4, h5, h6");
    if (
      headings.length > 1 &&
      [...headings].some((h) => h !== heading && h.tagName <= heading.tagName && !isItemTitle(h))
    )
      break;
    if (textLength(n) >= limit) break;
    best = n;
  }
  return best;
}

/** Removes the sections under headings that `pattern` matches ("Sign up to reply"); `walk` as for `elementsOf`. */
export function removeJunkSections(
  root: DomElement,
  pattern: RegExp,
  share = JUNK_SECTION_SHARE,
  walk?: BodyWalk,
): void {
  const total = lazyTextLength(root);
  for (const heading of elementsOf(root, SUBHEADINGS, walk)) {
    if (!isInside(heading, root)) continue;
    const text = (heading.textContent ?? "").replace(/\s+/g, " ").trim();
    if (text.length > 60 || !pattern.test(text)) continue;
    const limit = (total() || 1) * share;
    const section = sectionOf(heading, root, limit);
    if (section) {
      section.remove();
      continue;
    }
    // A flat page: the heading's following siblings up to the next heading of its level or higher.
    let after = 0;
    const doomed: DomElement[] = [heading];
    for (let s = heading.nextElementSibling; s; s = s.nextElementSibling) {
      if (HEADING.test(s.tagName) && s.tagName <= heading.tagName) break;
      after += textLength(s);
      doomed.push(s);
    }
    if (after < limit) for (const el of doomed) el.remove();
  }
}

/**
 * Removes the widgets of the page's type and a thread's controls from the content; returns the
 * page's longest thread of posts, or null. `walk` as for `elementsOf`.
 */
export function removeBoilerplate(root: DomElement, kind: PageKind, walk?: BodyWalk): Thread | null {
  const labelled = () => elementsOf(root, LABELLED, walk);
  if (kind === "product" && passOn("kind-widgets"))
    removeLabelled(root, labelled(), PRODUCT_JUNK_ATTR, KIND_JUNK_SHARE);
  if (kind === "other" && passOn("kind-widgets")) {
    removeLabelled(root, labelled(), CUSTOMER_REVIEWS_ATTR, JUNK_SECTION_SHARE);
    // A page of no stated type (a shop's, a bank's) keeps no small print either.
    removeLabelled(root, labelled(), SMALL_PRINT_ATTR, KIND_JUNK_SHARE);
  }
  if (kind === "forum" && passOn("kind-widgets"))
    removeLabelled(root, labelled(), FORUM_JUNK_ATTR, KIND_JUNK_SHARE);
  // A page that does not say it is a forum shows a thread only by its dated posts.
  const posts =
    (kind === "forum" || kind === "other") && passOn("post-controls")
      ? removeRepeatedControls(root, kind === "other", labelled())
      : null;
  if (posts) {
    // Edit notes first: a date's "(edited)" mark is no part of its label line.
    if (passOn("edit-notes")) removeEditNotes(posts);
    const named = passOn("post-meta") ? keepPostMeta(posts) : new Set<DomElement>();
    // A page that states no type but shows a dated thread is a forum within its posts.
    if (kind === "other") {
      removePostChrome(posts, named);
      // ... and its forum's widgets beside the posts (poster panels, vote buttons, stats, related topics) go as on a forum page.
      removeLabelled(root, labelled(), FORUM_JUNK_ATTR, KIND_JUNK_SHARE);
    }
    // The names and dates moved into new lines: the walk no longer matches the page.
    if (walk) walk.elements = null;
  }
  const thread = posts ? threadOf(posts) : null;
  // A thread ends with a call to sign in and reply, shown to guests.
  if ((kind === "forum" || thread) && passOn("join-sections"))
    removeJunkSections(root, JOIN_HEADING, JUNK_SECTION_SHARE, walk);
  return thread;
}
