/**
 * The page's main region, for pages whose content is not one article: service pages (many
 * sections), products, listings and collections (repeated cards), forums (the posts). The page
 * is stripped of its chrome (header, footer, menus, banners, forms, hidden parts) and the
 * `<main>` landmark, or else the densest content block, is kept whole.
 */
import { isInside } from "./article-cleanup";
import { camelWords } from "./dom-shape";
import { isPricedCardPart, wrapsPricedGrid } from "./collection-page";
import { isDisclosedPanel } from "./disclosures";
import { lazyTextLength, linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { desktopDisplay, FOLDED_HIDING, foldedPanels } from "./folded-content";
import { isChromeDrawer, isFoldedByClass, isShortControl, junkLabel, labelNames } from "./junk-labels";
import { isSectionHeader } from "./landmarks";
import {
  CHROME_SELECTOR,
  type ChromeGroups,
  type BodyWalk,
  type ElementKind,
  elementsOf,
  stillUnder,
  walkForChrome,
} from "./page-walk";
import { classFoldedAnswers } from "./folded-answers";
import { isPostForm } from "./post-lists";
import { spokenTwin } from "./spoken-text";
import { CHROME_ATTR, HIDDEN_CLASS, SKIP_ATTR, WIDGET_ATTR } from "./vocabulary/class-words";

/** A class-hidden block is removed whatever its share when the rest of the text holds at least this many characters. */
export const MIN_SHOWN_BESIDE_HIDDEN = 4000;
/** A price as shops print it ($37.00, 19,99 €, £8). */
const PRICE =
  /([$€£¥₹]\s?\d[\d.,]*|\b(EUR|USD|GBP|CAD|AUD|CHF|JPY|INR)\s?\d|\d[\d.,]*\s?(€|EUR|USD|GBP|zł|kr))/;
/** A grid of at least this many priced cards is a product grid (other products, not this page's text). */
export const MIN_GRID_CARDS = 3;
/** A shop or listing widget is removed unless it holds at least this share of the text. */
export const WIDGET_SHARE = 0.5;
/** A widget or chrome block goes whatever its share when at least this share of its text is link text (a list of links). */
export const WIDGET_LINK_SHARE = 0.5;
/** Dialogs (consent managers, popups) are removed unless they hold nearly all of the text. */
const DIALOG = "[role=dialog], [role=alertdialog], [aria-modal=true]";
export const DIALOG_SHARE = 0.6;

/** A paragraph this long is prose: a filter panel, a pager or a swatch list never holds one. */
export const PROSE_PARAGRAPH_CHARS = 200;

/** Whether the block holds a paragraph of prose. */
function holdsProse(el: DomElement): boolean {
  for (const p of el.querySelectorAll("p")) if (textLength(p) >= PROSE_PARAGRAPH_CHARS) return true;
  return false;
}

/** Whether a label names chrome, its camelCase joins read as word breaks when asked (`shareButtons`). */
function namesChrome(label: string, camel: boolean): boolean {
  if (labelNames(CHROME_ATTR, label)) return true;
  if (!camel) return false;
  const split = camelWords(label);
  return split !== label && labelNames(CHROME_ATTR, split);
}

/** An id of PascalCase words (`ContainerFooter`, `TopMenu`), as older templates name a page's regions. */
const PASCAL_ID = /^[A-Z][a-z]+[A-Z]/;

/**
 * Whether the element's id is PascalCase words naming chrome (`FooterUpper`, `HeaderUpper`,
 * `TopMenu`): older templates (ASP.NET, early shop themes) name a page's regions so. A camelCase
 * id or class (`menuItem`, `pqvOverlay`) names a small part and is read as it is (a slug id left
 * out of the label stays out).
 */
function pascalIdNamesChrome(el: DomElement, label: string): boolean {
  const id = el.getAttribute("id");
  if (!id || !PASCAL_ID.test(id) || !label.includes(id)) return false;
  return namesChrome(id, true);
}

/**
 * Removes page chrome that holds little of the page's text (a wrapper labelled "header" is kept).
 * `groups` are root's elements as a walk found them (earlier passes may have removed some since).
 * With `camel`, a camelCase class name is read as its words (forum software names its blocks
 * `shareButtons`, `ipsShareButton`; elsewhere `menuItem` may be a restaurant's dish).
 */
export function removeChrome(
  root: DomElement,
  share = 0.25,
  groups: ChromeGroups = walkForChrome(root),
  camel = false,
): void {
  const total = lazyTextLength(root);
  const under = (el: DomElement) => stillUnder(el, root);
  const spoken = removeChromeBlocks(root, share, groups, total);
  // A block around the page's <main> is its layout (`content-sidebar-wrap`), whatever its label says.
  const layout = new Set<DomElement>();
  for (const main of groups.mains.filter(under))
    for (let n = main.parentElement; n && n !== root && !layout.has(n); n = n.parentElement) layout.add(n);
  const labelled = groups.labelled.filter(
    (el) => under(el) && (el.hasAttribute("class") || el.hasAttribute("id")),
  );
  const page: LabelledChrome = { root, share, total, spoken, layout, camel };
  for (const el of labelled) removeLabelledChrome(el, page);
}

/**
 * Removes the chrome blocks by tag, role, flag or style (CHROME_SELECTOR) holding under `share` of
 * the text; returns the screen-reader copies of texts they showed `aria-hidden` (a sale's old and
 * new price), which carry them.
 */
function removeChromeBlocks(
  root: DomElement,
  share: number,
  groups: ChromeGroups,
  total: () => number,
): Set<DomElement> {
  const under = (el: DomElement) => stillUnder(el, root);
  const folded = foldedPanels(root, FOLDED_HIDING, groups.panels.filter(under));
  const answers = classFoldedAnswers(groups.chrome.filter(under));
  const spoken = new Set<DomElement>();
  for (const el of groups.chrome.filter((el) => under(el) && el.matches(CHROME_SELECTOR))) {
    if (
      !isInside(el, root) ||
      (el.tagName === "FORM" && (el.querySelector("article, main") || isPostForm(el)))
    )
      continue;
    if (folded.has(el) || isDisclosedPanel(el) || answers.has(el)) continue;
    // A <header> inside a section heads it (a hero's title and lead): only the page's own is chrome.
    if (isSectionHeader(el)) continue;
    const twin = spokenTwin(el);
    if (twin) spoken.add(twin);
    if (textLength(el) < (total() || 1) * (el.matches(DIALOG) ? DIALOG_SHARE : share)) el.remove();
  }
  return spoken;
}

/** What `removeLabelledChrome` reads of the page. */
interface LabelledChrome {
  root: DomElement;
  share: number;
  total: () => number;
  spoken: Set<DomElement>;
  layout: Set<DomElement>;
  camel: boolean;
}

/** Removes a block whose class or id names chrome, a widget, or hidden text, unless it holds much of the page's text. */
function removeLabelledChrome(
  el: DomElement,
  { root, share, total, spoken, layout, camel }: LabelledChrome,
): void {
  const label = junkLabel(el);
  // A block labelled a filter or a sorter that holds a paragraph of prose is a section (an FAQ
  // accordion); one that holds the grid of priced cards is its wrapper.
  const widget =
    (labelNames(WIDGET_ATTR, label) && !holdsProse(el) && !wrapsPricedGrid(el, label)) ||
    isShortControl(el, label, SKIP_ATTR);
  // `hidden md:block` is shown on a desktop (a `lg:hidden` twin is left: mobile copies are often the only one);
  // a hidden accordion or tab body is folded content, and so is a hidden twin of a shown block (a tab set's other pages).
  const cls = el.getAttribute("class") ?? "";
  const hidden =
    HIDDEN_CLASS.test(cls) &&
    desktopDisplay(el) !== "shown" &&
    !isFoldedByClass(cls) &&
    !isDisclosedPanel(el) &&
    !spoken.has(el) &&
    !isHiddenTab(el, cls);
  const chrome = namesChrome(label, camel) || pascalIdNamesChrome(el, label);
  if (!widget && !hidden && !chrome && !isChromeDrawer(el, label, root)) return;
  // A product card labelled by a state (`subscription-eligible`) is a card, not a signup box.
  if (!widget && !hidden && isPricedCardPart(el, root)) return;
  // An FAQ or accordion item named like a menu (`faq_tabs-menu-link`) that holds prose is a question and its answer.
  if (!widget && !hidden && isFoldedByClass(cls) && holdsProse(el)) return;
  if (el.tagName === "BODY" || el.tagName === "MAIN" || layout.has(el) || !isInside(el, root)) return;
  // Filters, pagers and upsells are never the content: only a block holding most of the text is kept.
  const length = textLength(el);
  // A block hidden by its class goes whatever its share when the page shows plenty without it
  // (a shop's hidden field dump or phone-layout copy of its grid, not content revealed by script).
  if (hidden && total() - length >= MIN_SHOWN_BESIDE_HIDDEN) el.remove();
  else if (length < (total() || 1) * (widget ? WIDGET_SHARE : share)) el.remove();
  // A widget or chrome block that is mostly links (a facet list, a sidebar of categories, a menu)
  // is never the content, whatever its share.
  else if ((widget || chrome) && length > 0 && linkTextLength(el) >= length * WIDGET_LINK_SHARE) el.remove();
}

/**
 * Whether a class-hidden element is one page of a tab set switched by script: a sibling of its tag
 * is shown with its class less the hidden token (`templates-list` beside `templates-list hidden`).
 */
function isHiddenTab(el: DomElement, cls: string): boolean {
  const shown = cls.replace(HIDDEN_CLASS, " ").replace(/\s+/g, " ").trim();
  if (!shown) return false;
  const parent = el.parentElement;
  if (!parent) return false;
  for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
    if (s === el || s.tagName !== el.tagName) continue;
    if ((s.getAttribute("class") ?? "").replace(/\s+/g, " ").trim() === shown) return true;
  }
  return false;
}

/** Removes grids of priced product cards: several similar siblings, each short and showing a price. */
function removeProductGrids(root: DomElement): void {
  for (const el of [...root.querySelectorAll("ul, ol, div, section")]) {
    const cards = el.children;
    if (cards.length < MIN_GRID_CARDS || !isInside(el, root)) continue;
    let priced = 0;
    let unpriced = 0;
    for (let i = 0; i < cards.length && unpriced <= cards.length * 0.4; i++) {
      const text = cards[i].textContent ?? "";
      if (text.length < 600 && PRICE.test(text) && cards[i].querySelector("a")) priced++;
      else unpriced++;
    }
    if (priced >= MIN_GRID_CARDS && priced >= cards.length * 0.6) el.remove();
  }
}

/** Landmarks of the main content, by tag, role or id. */
const LANDMARK_IDS = new Set(["main-content", "maincontent", "content-main"]);
const LANDMARKS: ElementKind = {
  selector: "main, [role=main], #main-content, #maincontent, #content-main",
  test: (el) =>
    el.localName === "main" ||
    el.getAttribute("role") === "main" ||
    LANDMARK_IDS.has(el.getAttribute("id") ?? ""),
};

/** The landmark holding the main content, when the page marks one that holds most of its text. */
function landmark(body: DomElement, walk?: BodyWalk): DomElement | null {
  let best: DomElement | null = null;
  let bestLength = 0;
  for (const el of elementsOf(body, LANDMARKS, walk)) {
    const length = textLength(el);
    if (length > bestLength) [best, bestLength] = [el, length];
  }
  return best && bestLength >= (textLength(body) || 1) * 0.3 ? best : null;
}

/** On a product page the region goes down to the child holding this share of its non-link text. */
export const PRODUCT_BLOCK_SHARE = 0.8;

/** Text minus link text, the measure of a block's own content. */
const ownText = (el: DomElement) => textLength(el) - linkTextLength(el) * 0.7;

/** The smallest block that still holds nearly all (the share) of the body's non-link text. */
function densest(body: DomElement, share = 0.85): DomElement {
  let node = body;
  const total = ownText(body);
  for (;;) {
    let next: DomElement | null = null;
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      const own = ownText(c);
      if (own > 0 && own >= total * share) next = c;
    }
    if (!next) return node;
    node = next;
  }
}

/** Microdata types of a whole thread: the posting its opening post and replies belong to. */
const POSTING_TYPE = /schema\.org\/(DiscussionForumPosting|SocialMediaPosting)$/i;

/**
 * The thread item (a `DiscussionForumPosting`) holding the region, when the region is a part of
 * it (its replies, which hold nearly all the text): the opening post beside them is the thread's
 * content too. Otherwise the region itself. Cost: one walk up from the region.
 */
function postingAround(node: DomElement, body: DomElement): DomElement {
  for (let n = node.parentElement; n && n !== body; n = n.parentElement)
    if (n.hasAttribute("itemscope") && POSTING_TYPE.test(n.getAttribute("itemtype") ?? "")) return n;
  return node;
}

/** A page's main region and how much text it held before its widgets and product grids went. */
export interface Region {
  node: DomElement;
  /** Characters of text of the region with its grids (what is compared with Readability's article). */
  chars: number;
}

/**
 * The main region of a body already stripped of its chrome: its `<main>`, or the block holding its
 * text. It is found by reading the body; with `copy` the region alone is copied (the page goes on
 * to Readability, which takes it apart), else it is the body's own node. `walk` as for `elementsOf`.
 */
export function mainRegion(body: DomElement, dropGrids: boolean, copy = false, walk?: BodyWalk): Region {
  let node = landmark(body, walk) ?? densest(body);
  // The replies of a thread marked up as one posting hold most of its text: the posting is the region.
  node = postingAround(node, body);
  // A product's block sits in its <main> beside others' (reviews, other products): go down to it.
  if (dropGrids) node = densest(node, PRODUCT_BLOCK_SHARE);
  const chars = textLength(node);
  if (copy) node = node.cloneNode(true);
  if (dropGrids) removeProductGrids(node);
  return { node, chars };
}
