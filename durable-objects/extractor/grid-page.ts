/**
 * Pages whose content is a page of priced results (a category grid): blocks beside the grid that
 * no such page holds as its own text.
 */
import { isInside } from "./article-cleanup";
import { lazyTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { REVIEWS_ATTR } from "./vocabulary/class-words";

/** A reviews block is removed unless it holds at least this share of the content's text. */
export const GRID_REVIEWS_SHARE = 0.3;

/**
 * Removes, from content holding a page of priced results (`cards`, one grid's), the blocks labelled
 * as customers' reviews outside the grid. Cost: one `[class], [id]` query of the content.
 */
export function removeGridPageReviews(root: DomElement, cards: DomElement[]): void {
  const grid = cards[0]?.parentElement;
  if (!grid) return;
  const total = lazyTextLength(root);
  for (const el of [...root.querySelectorAll("[class], [id]")]) {
    const named =
      REVIEWS_ATTR.test(el.getAttribute("class") ?? "") || REVIEWS_ATTR.test(el.getAttribute("id") ?? "");
    if (!named || !isInside(el, root) || isInside(el, grid) || isInside(grid, el)) continue;
    if (textLength(el) < total() * GRID_REVIEWS_SHARE) el.remove();
  }
}
