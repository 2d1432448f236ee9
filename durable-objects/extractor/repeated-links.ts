/**
 * Links that are no text of the content: controls a page repeats under many items (one short label,
 * "See details", "Add to cart", leading to as many places), links into the page itself, wordless
 * twins of worded links.
 */
import { textOf } from "./dom-text";
import { someAncestor } from "./dom-shape";
import type { DomElement } from "./dom-types";

/** A control's label is at most this long... */
export const MAX_CONTROL_LABEL = 25;
/** ... has at least this many words (a one-word label may be a format or a tag: "PDF", "Reviews")... */
export const MIN_CONTROL_WORDS = 2;
/** ... and leads to at least this many different places. */
export const MIN_CONTROL_TARGETS = 4;

/** Where a repeated label is an item's title or a cell's entry, not a control. */
const TITLE_OR_CELL = /^(H[1-6]|TD|TH)$/;

/** Whether the element sits in a heading or a table cell (below root). */
const inTitleOrCell = (el: DomElement, root: DomElement) =>
  someAncestor(el, root, (n) => TITLE_OR_CELL.test(n.tagName));

/** Whether the link stands in a line of words (its parent holds text of its own: "see the <a>Google Scholar</a> entry"). */
function inSentence(a: DomElement): boolean {
  for (let n = a.parentElement?.firstChild ?? null; n; n = n.nextSibling)
    if (n.nodeType === 3 && /\p{L}/u.test(n.textContent ?? "")) return true;
  return false;
}

/** The link's label when it may be a control's: short, words without digits (a date or a count is not one). */
function controlLabel(a: DomElement): string {
  const label = textOf(a).toLowerCase();
  if (label.length > MAX_CONTROL_LABEL || /\d/.test(label) || !/\p{L}/u.test(label)) return "";
  return label.split(" ").length >= MIN_CONTROL_WORDS ? label : "";
}

/**
 * Removes the links whose label is a control's: short, of two or more words without digits, not in
 * a heading, a table cell or a sentence, and carried by links to at least four different places. Cost: one `a[href]` query of
 * the content and the text of each link.
 */
export function removeRepeatedLinkLabels(root: DomElement): void {
  const byLabel = new Map<string, { links: DomElement[]; targets: Set<string> }>();
  for (const a of root.querySelectorAll("a[href]")) {
    const label = controlLabel(a);
    if (!label || inTitleOrCell(a, root) || inSentence(a)) continue;
    const entry = byLabel.get(label) ?? { links: [], targets: new Set<string>() };
    entry.links.push(a);
    entry.targets.add(a.getAttribute("href") ?? "");
    byLabel.set(label, entry);
  }
  for (const { links, targets } of byLabel.values())
    if (targets.size >= MIN_CONTROL_TARGETS) for (const a of links) a.remove();
}

/** Links that add nothing: to parts of this page (permalinks ¶ §, in-page references) they print their
 * text; showing no words, there or where a worded link of the content leads too, they go. */
export function unlinkIdleLinks(root: DomElement, url = ""): void {
  const [page, links] = [url.split("#")[0], [...root.querySelectorAll("a[href]")]];
  const worded = new Set(links.filter((a) => /[\p{L}\p{N}]/u.test(a.textContent ?? "")));
  const labelled = new Set([...worded].map((a) => a.getAttribute("href")));
  for (const a of links) {
    const href = a.getAttribute("href") ?? "";
    const own = href.startsWith("#") || (page !== "" && href.startsWith(`${page}#`));
    if (!worded.has(a) && (own || labelled.has(href))) a.remove();
    else if (own) a.replaceWith(...a.childNodes);
  }
}
