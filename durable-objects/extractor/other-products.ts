/**
 * Other products on a product's page ("you may also like", "frequently bought together", a seller's other
 * items, a set's other parts): a grid of cards, each linking to another page shaped like the product's own
 * (`/products/other-thing` beside `/products/this-thing`, `/itm/456` beside `/itm/123`). Known by the shape
 * of its links, whatever its words; a grid that links to the product itself (a comparison of models) stays.
 */
import { isInside } from "./article-cleanup";
import { repeats, widenWhile } from "./dom-shape";
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A grid of other products has at least this many cards, linking to as many other products. */
export const MIN_OTHER_PRODUCTS = 2;
/** A card holds at most this much text (a block holding more is a section of the page). */
export const MAX_OTHER_CARD_CHARS = 600;
/** A grid holding more than this share of the content's text is the content (a set's parts), not an aside. */
export const MAX_OTHER_PRODUCTS_SHARE = 0.5;
/** A wrapper holding the grid and at most this much more text (its heading) goes with it. */
export const GRID_HEADING_CHARS = 80;

/** The path segments of a link on the page's host, or null (another host, unparsable). */
function pathOf(href: string, page: URL): string | null {
  if (!URL.canParse(href, page)) return null;
  const url = new URL(href, page);
  return url.host === page.host ? url.pathname.split("/").filter(Boolean).join("/") : null;
}

/** Whether `path` is shaped like the product's own (`own`): as deep (two segments or more), under the same first segment. */
function shapedLike(path: string, own: string): boolean {
  const a = path.split("/");
  const b = own.split("/");
  return a.length === b.length && a.length >= 2 && a[0] === b[0];
}

/** Whether `el` holds a link to a product other than `path` (`paths`: the product links and their paths). */
function holdsOther(el: DomElement, path: string, paths: Map<DomElement, string>): boolean {
  return [...el.querySelectorAll("a[href]")].some((a) => (paths.get(a) ?? path) !== path);
}

/**
 * The card of a product link: the largest block around it that links to no other product (its image
 * and its title link to the same page), when it repeats among its siblings and is short.
 */
function cardOf(link: DomElement, root: DomElement, paths: Map<DomElement, string>): DomElement | null {
  const path = paths.get(link) ?? "";
  const card = widenWhile(link, root, (up) => !holdsOther(up, path, paths));
  return repeats(card) && textLength(card) <= MAX_OTHER_CARD_CHARS ? card : null;
}

/** The grids (the cards' parent) of other products under root. */
function otherProductGrids(root: DomElement, page: URL): DomElement[] {
  const own = page.pathname.split("/").filter(Boolean).join("/");
  const paths = new Map<DomElement, string>();
  for (const a of root.querySelectorAll("a[href]")) {
    const path = pathOf(a.getAttribute("href") ?? "", page);
    if (path !== null && shapedLike(path, own)) paths.set(a, path);
  }
  const grids = new Map<DomElement, Set<string>>();
  const showingOwn = new Set<DomElement>();
  for (const [a, path] of paths) {
    const grid = cardOf(a, root, paths)?.parentElement;
    if (!grid) continue;
    if (path === own) showingOwn.add(grid);
    else grids.set(grid, (grids.get(grid) ?? new Set()).add(path));
  }
  return [...grids]
    .filter(([grid, paths]) => paths.size >= MIN_OTHER_PRODUCTS && !showingOwn.has(grid))
    .map(([grid]) => grid);
}

/** Removes the grids of other products from a product's content (`pageUrl`: the product's), each with the heading over it. */
export function removeOtherProducts(root: DomElement, pageUrl: string): void {
  if (!URL.canParse(pageUrl)) return;
  const page = new URL(pageUrl);
  const total = textLength(root);
  for (const grid of otherProductGrids(root, page)) {
    const chars = textLength(grid);
    if (!isInside(grid, root) || chars > total * MAX_OTHER_PRODUCTS_SHARE) continue;
    widenWhile(grid, root, (up) => textLength(up) <= chars + GRID_HEADING_CHARS).remove();
  }
}
