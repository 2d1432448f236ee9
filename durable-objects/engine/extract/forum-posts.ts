/**
 * Forum and Q&A threads: the posts are the content. On a Q&A page marked up with schema.org
 * microdata, each question and answer is read as its `text` (its vote buttons, author card, menus
 * and the comment thread under it go); on any forum, the per-post user panels (pairs of short
 * label/value lines repeated in every post: join date, post count, location) go.
 */

import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Microdata types of the posts of a Q&A page. */
const QA_POST = "[itemtype$='schema.org/Question'], [itemtype$='schema.org/Answer']";
/** A post's own text under its microdata (`itemprop=text`, or `articleBody`). */
const POST_TEXT = "[itemprop=text], [itemprop=articleBody]";
/** A list of short label/value pairs (a user panel) holds at most this many characters per pair. */
export const MAX_PAIR_CHARS = 60;
/** A user-panel list repeats in at least this many posts before it is removed. */
export const MIN_PANEL_REPEATS = 3;

/** The element's nearest microdata item (itemscope) above it, below root. */
function itemOf(el: DomElement, root: DomElement): DomElement | null {
  for (let n = el.parentElement; n && n !== root; n = n.parentElement)
    if (n.hasAttribute("itemscope")) return n;
  return null;
}

/** The post's own text element: the first POST_TEXT that belongs to this item, not to an item inside it. */
function postText(post: DomElement): DomElement | null {
  for (const el of post.querySelectorAll(POST_TEXT))
    if (itemOf(el, post.parentElement ?? post) === post) return el;
  return null;
}

/** Keeps only the path from a post down to its text: every block beside that path goes (votes, cards, comments). */
function keepOnlyText(post: DomElement, body: DomElement): void {
  for (let node: DomElement | null = body; node && node !== post; node = node.parentElement) {
    const parent: DomElement | null = node.parentElement;
    if (!parent) break;
    for (const sibling of Array.from(parent.children)) {
      // Answers nested in their question's item are posts of their own, kept for their own reading.
      if (sibling === node || sibling.matches(QA_POST) || sibling.querySelector(QA_POST)) continue;
      sibling.remove();
    }
  }
}

/**
 * Reads each question and answer of a microdata Q&A page as its text alone; returns those texts when
 * a question has one (an FAQ's questions have a name, not a text: they are no thread).
 */
export function readQaPosts(root: DomElement): DomElement[] {
  const bodies: DomElement[] = [];
  let asked = false;
  for (const post of root.querySelectorAll(QA_POST)) {
    const body = postText(post);
    if (!body || !post.isConnected) continue;
    keepOnlyText(post, body);
    bodies.push(body);
    asked ||= /Question$/.test(post.getAttribute("itemtype") ?? "");
  }
  return asked ? bodies : [];
}

/** A `<dl>` of short label/value pairs: a user panel, not a post's text. */
function isPairList(dl: DomElement): boolean {
  const terms = dl.querySelectorAll("dt, dd");
  if (terms.length < 2) return false;
  for (const t of terms) if (textLength(t) > MAX_PAIR_CHARS) return false;
  return true;
}

/** Removes label/value lists repeated with the same class in several posts (join date, posts, location of each poster). */
export function removeUserPanels(root: DomElement): void {
  const groups = new Map<string, DomElement[]>();
  for (const dl of root.querySelectorAll("dl")) {
    if (!isPairList(dl)) continue;
    const key = dl.getAttribute("class") ?? "";
    groups.set(key, [...(groups.get(key) ?? []), dl]);
  }
  for (const dls of groups.values()) if (dls.length >= MIN_PANEL_REPEATS) for (const dl of dls) dl.remove();
}

/** Cleans a forum or Q&A page's posts of their per-post chrome; returns the texts of a Q&A page's question and answers. */
export function cleanForumPosts(root: DomElement): DomElement[] {
  const qa = readQaPosts(root);
  removeUserPanels(root);
  return qa;
}
