/**
 * One walk of a page, its elements sorted into the groups the cleaning passes read. A linkedom query walks
 * every node of the tree whatever it matches (about 0.4 ms on a page, 1 ms for a selector of many parts), so
 * the passes before Readability share one walk instead of making one per selector. They remove elements
 * between their reads: a group is read through `stillUnder`, which leaves out what was removed since the
 * walk, and a pass tests again any attribute that an earlier pass may have changed. The body's walked
 * elements also stand in for the later passes' queries until a step inserts or moves elements (`elementsOf`).
 */
import type { DomDocument, DomElement, DomNode } from "./dom-types";

/** Elements that never hold article text, removed before anything reads the page. */
const JUNK_TAGS = new Set(
  "canvas iframe object embed button select input textarea nav aside dialog link meta".split(" "),
);
/** Roles of folded panels (an accordion's answer, a tab's page). */
const PANEL_ROLES = new Set(["region", "tabpanel"]);
/** Roles of blocks beside the content, removed with what the page hides. */
const ASIDE_ROLES = new Set(["navigation", "complementary"]);

/** Elements that are chrome by their tag, role, flags or inline style. */
export const CHROME_SELECTOR =
  "header, footer, form, [role=banner], [role=contentinfo], [role=search], [role=dialog], [role=alertdialog], [aria-hidden=true], [aria-modal=true], [style*='display:none'], [style*='display: none']";
const CHROME_TAGS = new Set(["header", "footer", "form"]);
const CHROME_ROLES = new Set(["banner", "contentinfo", "search", "dialog", "alertdialog"]);

/** What `removeChrome` reads, in document order. */
export interface ChromeGroups {
  /** Candidates of folded panels: `[aria-labelledby], [role=region], [role=tabpanel]`. */
  panels: DomElement[];
  /** The elements matching CHROME_SELECTOR when walked. */
  chrome: DomElement[];
  /** `[class], [id]`. */
  labelled: DomElement[];
  /** `main, [role=main]`: the blocks around them are the page's layout. */
  mains: DomElement[];
}

/** What the passes before Readability read: the chrome groups under the body, and more. */
export interface PageGroups extends ChromeGroups {
  /** JUNK_TAGS, in the whole document. */
  junkTags: DomElement[];
  /** `[role=navigation], [role=complementary], [hidden]`, in the whole document. */
  asidesAndHidden: DomElement[];
  /** Every element under the body. */
  bodyElements: DomElement[];
}

/** The name a tag selector compares (what linkedom's own tag matching reads). */
const nameOf = (el: DomElement) => el.localName.toLowerCase();

const isPanel = (el: DomElement, role: string | null) =>
  (role !== null && PANEL_ROLES.has(role)) || el.hasAttribute("aria-labelledby");

function sortForChrome(el: DomElement, name: string, role: string | null, into: ChromeGroups): void {
  if (name === "main" || role === "main") into.mains.push(el);
  if (!el.hasAttributes()) {
    if (CHROME_TAGS.has(name)) into.chrome.push(el);
    return;
  }
  if (isPanel(el, role)) into.panels.push(el);
  if (
    CHROME_TAGS.has(name) ||
    (role !== null && CHROME_ROLES.has(role)) ||
    el.getAttribute("aria-hidden") === "true" ||
    el.getAttribute("aria-modal") === "true" ||
    /display: ?none/.test(el.getAttribute("style") ?? "")
  )
    into.chrome.push(el);
  if (el.hasAttribute("class") || el.hasAttribute("id")) into.labelled.push(el);
}

/** Chrome groups with nothing in them yet. */
const noChrome = (): ChromeGroups => ({ panels: [], chrome: [], labelled: [], mains: [] });

/** The chrome groups of root's descendants, in one walk. */
export function walkForChrome(root: DomElement): ChromeGroups {
  const groups = noChrome();
  for (const el of root.querySelectorAll("*")) sortForChrome(el, nameOf(el), el.getAttribute("role"), groups);
  return groups;
}

/** The last element a query of el's descendants reaches (a query skips what a template holds). */
function lastDescendant(el: DomElement): DomElement {
  let last = el;
  while (last.localName !== "template" && last.lastElementChild) last = last.lastElementChild;
  return last;
}

/** The page's groups in one walk of the document; the chrome groups only `withChrome`. */
export function walkPage(doc: DomDocument, withChrome: boolean): PageGroups {
  const groups: PageGroups = { ...noChrome(), junkTags: [], asidesAndHidden: [], bodyElements: [] };
  const body = doc.body;
  const end = body ? lastDescendant(body) : null;
  let inBody = false;
  for (const el of doc.querySelectorAll("*")) {
    const name = nameOf(el);
    if (JUNK_TAGS.has(name)) groups.junkTags.push(el);
    const attributes = el.hasAttributes();
    const role = attributes ? el.getAttribute("role") : null;
    if (attributes && ((role !== null && ASIDE_ROLES.has(role)) || el.hasAttribute("hidden")))
      groups.asidesAndHidden.push(el);
    if (inBody) {
      groups.bodyElements.push(el);
      if (withChrome) sortForChrome(el, name, role, groups);
      else if (attributes && isPanel(el, role)) groups.panels.push(el);
    }
    if (el === body) inBody = end !== body;
    else if (el === end) inBody = false;
  }
  return groups;
}

/** A kind of element as a selector and as the same test in code, so that a walk can stand in for a query. */
export interface ElementKind {
  selector: string;
  test: (el: DomElement) => boolean;
}

export const LABELLED: ElementKind = {
  selector: "[class], [id]",
  test: (el) => el.hasAttribute("class") || el.hasAttribute("id"),
};
export const SECTION_HEADINGS: ElementKind = {
  selector: "h2, h3",
  test: (el) => el.localName === "h2" || el.localName === "h3",
};

/**
 * The body's elements as a walk found them, standing in for queries until a step inserts or moves elements
 * (Readability rebuilds the page): that step sets `elements` to null, and queries answer again.
 */
export interface BodyWalk {
  elements: DomElement[] | null;
}

/**
 * root's elements of a kind in document order, as `root.querySelectorAll(kind.selector)` finds
 * them: from the walk (root among the walked body or in it) less what was removed since, else by
 * that query. (The parser gives HTML elements lower-case names.)
 */
export function elementsOf(root: DomElement, kind: ElementKind, walk?: BodyWalk): DomElement[] {
  const walked = walk?.elements;
  if (!walked) return [...root.querySelectorAll(kind.selector)];
  return walked.filter((el) => kind.test(el) && stillUnder(el, root));
}

/** Whether the element is still under root (not removed, nor inside something removed, since it was walked). */
export function stillUnder(el: DomElement, root: DomElement | DomDocument): boolean {
  for (let n: DomNode | null = el.parentNode; n; n = n.parentNode) if (n === root) return true;
  return false;
}
