/**
 * The part of the DOM the in-page walker uses, typed structurally: the project compiles without
 * the DOM lib (it targets workerd); Chromium's DOM and linkedom's (in the unit tests) both fit.
 */

/** A DOM node. */
export interface WNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<WNode>;
  parentElement: WElement | null;
}

/** A DOM element, with the optional properties of links, images and form fields. */
export interface WElement extends WNode {
  tagName: string;
  id: string;
  children: ArrayLike<WElement>;
  previousElementSibling: WElement | null;
  nextElementSibling: WElement | null;
  innerText?: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): WElement | null;
  querySelectorAll(selector: string): ArrayLike<WElement>;
  contains(other: WNode): boolean;
  checkVisibility?(): boolean;
  href?: string;
  src?: string;
  alt?: string;
  type?: string;
  value?: string;
  checked?: boolean;
  labels?: ArrayLike<WElement> | null;
  options?: ArrayLike<WElement & { text: string; selected: boolean }>;
}

/** The document the walker reads. */
export interface WDocument {
  title: string;
  body: WElement | null;
  documentElement: WElement;
  querySelector(selector: string): WElement | null;
  querySelectorAll(selector: string): ArrayLike<WElement>;
}

/** Node types the walker tells apart. */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/** Elements never read: scripts, styles, embedded documents and drawings. */
export const SKIP_TAGS = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "HEAD",
  "META",
  "LINK",
  "SVG",
  "CANVAS",
  "IFRAME",
  "OBJECT",
]);

/** Whitespace runs folded to one space, ends trimmed. */
export const squash = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();

/** The element's rendered text (innerText), or its text content where there is no layout. */
export const textOf = (el: WElement): string => squash(renderedText(el));

/** innerText: the text as the page shows it (CSS-hidden parts left out, line breaks kept). */
export const renderedText = (el: WElement): string =>
  // biome-ignore lint/performance/useDomNodeTextContent: the walker reads what the page shows
  el.innerText ?? el.textContent ?? "";

/** Visibility already asked of the browser (a read measures the page, then writes part of it). */
const shownCache = new WeakMap<WElement, boolean>();

/** Whether the element is rendered: the browser's own check, else the `hidden` attribute and inline style. */
export function isShown(el: WElement): boolean {
  let shown = shownCache.get(el);
  if (shown !== undefined) return shown;
  if (typeof el.checkVisibility === "function") shown = el.checkVisibility();
  else
    shown =
      !el.hasAttribute("hidden") &&
      !/display\s*:\s*none|visibility\s*:\s*hidden/i.test(el.getAttribute("style") ?? "");
  shownCache.set(el, shown);
  return shown;
}

/** Whether the element is one the walker reads at all. */
export const isReadable = (el: WElement): boolean => !SKIP_TAGS.has(el.tagName.toUpperCase()) && isShown(el);
