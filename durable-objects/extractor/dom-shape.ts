/**
 * How the extraction steps name an element: by its class and id words, and by its shape among its siblings;
 * and how they find the blocks around it.
 */
import type { DomElement } from "./dom-types";

type ElementTest = (el: DomElement) => boolean;

/** The element's class and id, as one string that class/id word patterns are tested on. */
export const labelOf = (el: DomElement) => `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;

/** A heading's tag name. */
export const HEADING_TAG = /^H[1-6]$/;

/** A dialog over the page, by its role or flag. */
export const DIALOG_SELECTOR = "[role=dialog], [role=alertdialog], [aria-modal=true]";

/** The page's own wrappers: never a box of chrome, whatever their class or id say. */
export const PAGE_WRAPPER_TAG = /^(HTML|BODY|MAIN|ARTICLE)$/;

/** A label with its camelCase joins read as word breaks (`shareButtons` -> `share Buttons`, `Products_productBadge` -> `Products_product Badge`). */
export const camelWords = (label: string) => label.replace(/([a-z])([A-Z])/g, "$1 $2");

/** The element's first class word, or "". */
export const firstClassWord = (el: DomElement) =>
  (el.getAttribute("class") ?? "").trim().split(/\s+/)[0] ?? "";

/** An element's shape: its tag and first class word, digits dropped (`card-3` and `card-7` are one shape). */
export function shapeOf(el: DomElement): string {
  return `${el.tagName}.${firstClassWord(el).replace(/\d+/g, "")}`;
}

/** The most frequent of `keys` (the first seen of those tied) and how many times it occurs; ["", 0] for none. */
export function mostCommon(keys: Iterable<string>): [string, number] {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  let top: [string, number] = ["", 0];
  for (const entry of counts) if (entry[1] > top[1]) top = entry;
  return top;
}

/** Whether a sibling of `el` has its shape (the element repeats, as cards of a grid do). */
export function repeats(el: DomElement): boolean {
  const shape = shapeOf(el);
  const prev = el.previousElementSibling;
  const next = el.nextElementSibling;
  return (prev !== null && shapeOf(prev) === shape) || (next !== null && shapeOf(next) === shape);
}

/** Whether `from` or one of its ancestors below `stop` (all of them when null) passes `test`. */
export function someAncestor(from: DomElement | null, stop: DomElement | null, test: ElementTest): boolean {
  for (let n = from; n && n !== stop; n = n.parentElement) if (test(n)) return true;
  return false;
}

/** The outermost of `el` and its ancestors below `root`, going up while each parent passes `test`. */
export function widenWhile(el: DomElement, root: DomElement, test: ElementTest): DomElement {
  let box = el;
  while (box.parentElement && box.parentElement !== root && test(box.parentElement)) box = box.parentElement;
  return box;
}
