/**
 * A listing printed once per view (a shop's grid view and list view, a blog's cards and its
 * compact list): two lists whose items lead to the same pages in the same order. The page's
 * stylesheet shows one of them at a time; the reader sees each item once. The copy with more
 * text (the list view, with each item's description) is kept.
 */
import { isInside } from "./article-cleanup";
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Lists of fewer items are not compared. */
const MIN_VIEW_ITEMS = 4;

/** The pages a list's items lead to, each item's first link, in order; "" when an item has none. */
function itemTargets(list: DomElement): string[] {
  const targets: string[] = [];
  for (const item of Array.from(list.children)) {
    if (item.tagName !== "LI") continue;
    targets.push(item.querySelector("a[href]")?.getAttribute("href") ?? "");
  }
  return targets;
}

/** Whether two lists' items lead to the same pages in the same order (every item leads somewhere). */
const sameItems = (a: string[], b: string[]) =>
  a.length === b.length && a.every((href, i) => href !== "" && href === b[i]);

/** Whether one element holds the other. */
const nested = (a: DomElement, b: DomElement) => isInside(a, b) || isInside(b, a);

/**
 * Removes the copy with less text of each pair of lists (at least four items each) whose items
 * lead to the same pages in the same order. Cost: one list query of the chosen content; one link
 * query per item of the lists long enough to compare.
 */
export function removeListViewCopies(root: DomElement): void {
  const lists: { node: DomElement; targets: string[] }[] = [];
  for (const node of root.querySelectorAll("ul, ol")) {
    if (node.children.length < MIN_VIEW_ITEMS) continue;
    const targets = itemTargets(node);
    if (targets.length >= MIN_VIEW_ITEMS) lists.push({ node, targets });
  }
  const gone = new Set<DomElement>();
  for (let i = 0; i < lists.length; i++)
    for (let j = i + 1; j < lists.length; j++) {
      const [a, b] = [lists[i], lists[j]];
      if (gone.has(a.node) || gone.has(b.node) || nested(a.node, b.node)) continue;
      if (!sameItems(a.targets, b.targets)) continue;
      const copy = textLength(a.node) < textLength(b.node) ? a.node : b.node;
      gone.add(copy);
      copy.remove();
    }
}
