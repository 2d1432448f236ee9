/**
 * The page's main region, for pages whose content is not one article: service pages (many
 * sections), products, listings and collections (repeated cards), forums (the posts). The page
 * is stripped of its chrome (header, footer, menus, banners, forms, hidden parts) and the
 * `<main>` landmark, or else the densest content block, is kept whole.
 */
import { isInside } from "./article-cleanup";
import { camelWords, DIALOG_SELECTOR, labelOf } from "./dom-shape";
import { wrapsPricedGrid } from "./collection-page";
import { isDisclosedPanel } from "./disclosures";
import { lazyTextLength, linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { desktopDisplay, FOLDED_HIDING, foldedPanels } from "./folded-content";
import { isFoldedByClass, isShortControl, labelNames } from "./junk-labels";
import {
  CHROME_SELECTOR,
  type ChromeGroups,
  type BodyWalk,
  type ElementKind,
  elementsOf,
  LABELLED,
  stillUnder,
  walkForChrome,
} from "./page-walk";
import { classFoldedAnswers } from "./folded-answers";
import { CHROME_ATTR, HIDDEN_CLASS, SKIP_ATTR, WIDGET_ATTR } from "./vocabulary/class-words";

/** A class-hidden block is removed whatever its share when the rest of the text holds at least this many characters. */
export const MIN_SHOWN_BESIDE_HIDDEN = 4000;
/** A shop or listing widget is removed unless it holds at least this share of the text. */
export const WIDGET_SHARE = 0.5;
/** A widget or chrome block goes whatever its share when at least this share of its text is link text (a list of links). */
export const WIDGET_LINK_SHARE = 0.5;
/** Dialogs (consent managers, popups) are removed unless they hold nearly all of the text. */
export const DIALOG_SHARE = 0.6;

/** A paragraph this long is prose: a filter panel, a pager or a swatch list never holds one. */
export const PROSE_PARAGRAPH_CHARS = 200;

/** Whether the block holds a paragraph of prose. */
function holdsProse(el: DomElement): boolean {
  return [...el.querySelectorAll("p")].some((p) => textLength(p) >= PROSE_PARAGRAPH_CHARS);
}

/** An id of PascalCase words (`ContainerFooter`, `TopMenu`), as older templates name a page's regions. */
const PASCAL_ID = /^[A-Z][a-z]+[A-Z]/;

/**
 * Whether the element's id is PascalCase words naming chrome (`FooterUpper`, `HeaderUpper`, `TopMenu`): older
 * templates (ASP.NET, early shop themes) name a page's regions so. A camelCase id or class (`menuItem`,
 * `pqvOverlay`) names a small part and is read as it is (a slug id left out of the label stays out).
 */
function pascalIdNamesChrome(el: DomElement, label: string): boolean {
  const id = el.getAttribute("id");
  if (!id || !PASCAL_ID.test(id) || !label.includes(id)) return false;
  return labelNames(CHROME_ATTR, id) || labelNames(CHROME_ATTR, camelWords(id));
}

/**
 * Removes page chrome that holds little of the page's text (a wrapper labelled "header" is kept).
 * `groups` are root's elements as a walk found them (earlier passes may have removed some since).
 */
export function removeChrome(root: DomElement, share = 0.25, groups = walkForChrome(root)): void {
  const layout = new Set<DomElement>();
  const page: ChromeRead = { root, share, total: lazyTextLength(root), layout };
  const under = (el: DomElement) => stillUnder(el, root);
  removeChromeBlocks(page, groups);
  // A block around the page's <main> is its layout (`content-sidebar-wrap`), whatever its label says.
  for (const main of groups.mains.filter(under))
    for (let n = main.parentElement; n && n !== root && !layout.has(n); n = n.parentElement) layout.add(n);
  const labelled = groups.labelled.filter((el) => under(el) && LABELLED.test(el));
  for (const el of labelled) removeLabelledChrome(el, page);
}

/** Removes the chrome blocks by tag, role, flag or style (CHROME_SELECTOR) holding under `share` of the text. */
function removeChromeBlocks({ root, share, total }: ChromeRead, groups: ChromeGroups): void {
  const under = (el: DomElement) => stillUnder(el, root);
  const folded = foldedPanels(root, FOLDED_HIDING, groups.panels.filter(under));
  const answers = classFoldedAnswers(groups.chrome.filter(under));
  for (const el of groups.chrome.filter((el) => under(el) && el.matches(CHROME_SELECTOR))) {
    if (!isInside(el, root) || (el.tagName === "FORM" && el.querySelector("article, main"))) continue;
    if (folded.has(el) || isDisclosedPanel(el) || answers.has(el)) continue;
    if (textLength(el) < (total() || 1) * (el.matches(DIALOG_SELECTOR) ? DIALOG_SHARE : share)) el.remove();
  }
}

/** What `removeChromeBlocks` and `removeLabelledChrome` read of the page (`layout`: the blocks around its `<main>`). */
interface ChromeRead {
  root: DomElement;
  share: number;
  total: () => number;
  layout: Set<DomElement>;
}

/** Removes a block whose class or id names chrome, a widget, or hidden text, unless it holds much of the page's text. */
function removeLabelledChrome(el: DomElement, { root, share, total, layout }: ChromeRead): void {
  const label = labelOf(el);
  // A block labelled a filter or a sorter that holds a paragraph of prose is a section (an FAQ
  // accordion); one that holds the grid of priced cards is its wrapper.
  const widget =
    (labelNames(WIDGET_ATTR, label) && !holdsProse(el) && !wrapsPricedGrid(el, label)) ||
    isShortControl(el, label, SKIP_ATTR);
  // `hidden md:block` is shown on a desktop (a `lg:hidden` twin is left: mobile copies are often the only one);
  // a hidden accordion or tab body is folded content.
  const cls = el.getAttribute("class") ?? "";
  const hidden =
    HIDDEN_CLASS.test(cls) &&
    desktopDisplay(el) !== "shown" &&
    !isFoldedByClass(cls) &&
    !isDisclosedPanel(el);
  const chrome = labelNames(CHROME_ATTR, label) || pascalIdNamesChrome(el, label);
  if (!widget && !hidden && !chrome) return;
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

/** A page's main region and how much text it holds (what is compared with Readability's article). */
export interface Region {
  node: DomElement;
  chars: number;
}

/**
 * The main region of a body already stripped of its chrome: its `<main>`, or the block holding its
 * text. It is found by reading the body; with `copy` the region alone is copied (the page goes on
 * to Readability, which takes it apart), else it is the body's own node. `walk` as for `elementsOf`.
 */
export function mainRegion(body: DomElement, product: boolean, copy = false, walk?: BodyWalk): Region {
  let node = landmark(body, walk) ?? densest(body);
  // A product's block sits in its <main> beside others' (reviews, other products): go down to it.
  if (product) node = densest(node, PRODUCT_BLOCK_SHARE);
  const chars = textLength(node);
  if (copy) node = node.cloneNode(true);
  return { node, chars };
}
