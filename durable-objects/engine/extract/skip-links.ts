/**
 * A page's hidden skip-link block: `<div style="display:none"><h1>Shop</h1><ul><li><a
 * href="#search-key">I'm shopping for...</a></li></ul></div>`. Screen readers and keyboards jump
 * with it to a part of the same page (its search box, its content); it is the page's chrome, never
 * its text. Hidden chrome usually goes only when it is a small share of the page (a page may hide
 * its whole content until a script shows it), so a page drawn by script, whose HTML holds nothing
 * but this block and its footer, kept it as its "content". It goes whatever its share.
 */
import { hiddenByStyle } from "./dom-shape";
import { textWords } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Words a skip-link block may hold beside its links (the site's name as a heading). */
export const MAX_SKIP_BLOCK_WORDS = 4;

/** Whether a link jumps within the page (`#search-key`, `#main-content`). */
const isInPageLink = (a: DomElement) => /^#[^\s]/.test(a.getAttribute("href") ?? "");

/**
 * Whether a hidden element is a skip-link block: it holds links, every one of them jumps within
 * the page, and beside them it holds at most MAX_SKIP_BLOCK_WORDS words (a heading, no prose).
 */
export function isSkipLinkBlock(el: DomElement): boolean {
  const links = [...el.querySelectorAll("a")];
  if (links.length === 0 || !links.every(isInPageLink)) return false;
  let linkWords = 0;
  for (const a of links) linkWords += textWords(a.textContent ?? "").length;
  return textWords(el.textContent ?? "").length - linkWords <= MAX_SKIP_BLOCK_WORDS;
}

/** Removes the skip-link blocks among `hidden` (the page's chrome hidden by style or flag). */
export function removeSkipLinkBlocks(hidden: DomElement[]): void {
  for (const el of hidden)
    if ((hiddenByStyle(el) || el.getAttribute("aria-hidden") === "true") && isSkipLinkBlock(el)) el.remove();
}
