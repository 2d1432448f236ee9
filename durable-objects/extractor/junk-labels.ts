/**
 * What a block's class/id words say about it, read with care: a heading's slug id is not a label,
 * "skip" and "more" name links and buttons (short), a drawer that holds prose is an accordion's
 * panel rather than an off-canvas menu, and a class-hidden accordion panel is folded content.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { DRAWER_ATTR, FOLDED_CLASS, LAYOUT_STATE, SHORT_JUNK_ATTR } from "./vocabulary/class-words";

/** An id of at least this many hyphen-joined words is a heading's slug (an anchor), not a role. */
export const MIN_SLUG_WORDS = 5;
const SLUG_ID = new RegExp(`^[\\p{L}\\p{N}]+(?:-[\\p{L}\\p{N}]+){${MIN_SLUG_WORDS - 1},}$`, "u");

/** A shorter hyphen-joined id is a slug only when it spells the heading that opens the element (`<section id="respond-to-comments"><h2>`). */
const SHORT_SLUG_ID = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+){2,}$/u;

/** The slug a documentation generator makes of a heading's text: "Respond to comments¶" → "respond-to-comments". */
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");

/** Whether the id is the slug of the heading the element is or opens with (an anchor, not a role), as generators write it (`h-` before it: WordPress's block editor). */
export function isHeadingSlug(el: DomElement, id: string): boolean {
  if (!SHORT_SLUG_ID.test(id)) return false;
  const heading = /^H[1-6]$/.test(el.tagName) ? el : el.firstElementChild;
  if (heading === null || !/^H[1-6]$/.test(heading.tagName)) return false;
  const slug = slugOf(heading.textContent ?? "");
  return slug === id || id === `h-${slug}`;
}

/**
 * Whether the element opens with a heading its id spells, of any length (`<section id="cookies">`
 * opening with "Cookies": a documentation section's anchor, not a cookie banner). A heading's own
 * short id still labels it, as the sections under "Related" or "Comments" headings are read by it.
 */
export function opensWithSlug(el: DomElement, id: string): boolean {
  const heading = el.firstElementChild;
  return heading !== null && /^H[1-6]$/.test(heading.tagName) && slugOf(heading.textContent ?? "") === id;
}

/** The class and id words of an element, an id that is a heading's slug left out. */
export function junkLabel(el: DomElement): string {
  const id = el.getAttribute("id") ?? "";
  const cls = el.getAttribute("class") ?? "";
  // Both slug patterns need at least two hyphens; an id of one or two words is a slug when it
  // spells the heading (`<section id="cookies"><h3>Cookies`), a test most elements end at their first child.
  if (id.indexOf("-") === id.lastIndexOf("-")) return `${cls} ${id && opensWithSlug(el, id) ? "" : id}`;
  return `${cls} ${SLUG_ID.test(id) || isHeadingSlug(el, id) ? "" : id}`;
}

/**
 * Whether a label names what `words` name, read without its layout-state tokens (`has-sidebar`
 * on the page's container is not a sidebar). The states are read only when the words match, so
 * the labels of most elements cost one test.
 */
export const labelNames = (words: RegExp, label: string) =>
  words.test(label) && words.test(label.replace(LAYOUT_STATE, " "));

/** A block labelled by SHORT_JUNK_ATTR is a control when its text is at most this long; longer, it is what the control reveals. */
export const MAX_CONTROL_CHARS = 100;

/** Whether the element is a "skip" or "more" control (short), not the content it skips to or unfolds. */
export const isShortControl = (el: DomElement, label: string, words = SHORT_JUNK_ATTR) =>
  words.test(label) && textLength(el) <= MAX_CONTROL_CHARS;

/** A drawer holding at least this many characters of its own (non-link) text in paragraphs is content. */
export const MIN_DRAWER_PROSE = 300;

/** Drawers of one class this many times on a page are an accordion's panels (a page has one menu or cart drawer). */
export const MIN_ACCORDION_DRAWERS = 3;

/** How many elements under a root bear each drawer class asked about (one query per class and root). */
const drawerCounts = new WeakMap<DomElement, Map<string, number>>();

function countUnder(root: DomElement, cls: string): number {
  let counts = drawerCounts.get(root);
  if (!counts) {
    counts = new Map();
    drawerCounts.set(root, counts);
  }
  const known = counts.get(cls);
  if (known !== undefined) return known;
  const n = cls.includes('"') ? 1 : root.querySelectorAll(`[class="${cls}"]`).length;
  counts.set(cls, n);
  return n;
}

/**
 * Whether a drawer-labelled block is one of an accordion's panels holding mostly its own text:
 * its class is borne by MIN_ACCORDION_DRAWERS elements of the page (each a question and its
 * answer, a table, a list), or it holds such panels (`drawer-set`), and it is not a menu of links.
 */
function isAccordionDrawer(el: DomElement, root: DomElement): boolean {
  const cls = el.getAttribute("class");
  if (cls === null || linkTextLength(el) >= textLength(el) / 2) return false;
  if (countUnder(root, cls) >= MIN_ACCORDION_DRAWERS) return true;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    const own = c.getAttribute("class");
    if (own !== null && DRAWER_ATTR.test(own) && countUnder(root, own) >= MIN_ACCORDION_DRAWERS) return true;
  }
  return false;
}

/** Whether a drawer-labelled block under root is page chrome: anything but paragraphs of prose or an accordion's panels. */
export function isChromeDrawer(el: DomElement, label: string, root: DomElement): boolean {
  if (!DRAWER_ATTR.test(label)) return false;
  if (isAccordionDrawer(el, root)) return false;
  if (!el.querySelector("p")) return true;
  return textLength(el) - linkTextLength(el) < MIN_DRAWER_PROSE;
}

/** Whether a class-hidden element is a folded accordion or tab panel (content), not a hidden duplicate. */
export const isFoldedByClass = (className: string) => FOLDED_CLASS.test(className);
