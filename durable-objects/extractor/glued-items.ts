/**
 * Items a page prints side by side with no space between them in its markup (a film's year,
 * running time and rating as three `<span>`s, a card's badges): a browser sets them apart with
 * CSS (gaps, margins, dots drawn by `::after`), but their texts would read as one word
 * ("20261h 54mR"). Adjacent inline items of one tag get a space between them.
 */
import { inCode } from "./code-blocks";
import type { DomElement } from "./dom-types";

/** Inline tags whose adjacent copies are separate items (formatting tags such as `<b>` may split a word). */
const INLINE_ITEMS = "span, time, small, abbr, cite, label";
const INLINE_ITEM_TAGS = new Set(INLINE_ITEMS.toUpperCase().split(", "));

/** A letter or digit at the end / the start of a text (punctuation already sets texts apart). */
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;
const STARTS_WITH_WORD = /^[\p{L}\p{N}]/u;

/** The space a linkedom element puts after itself (`ChildNode.after`, which the DOM types here leave out). */
const spaceAfter = (el: DomElement) => (el as unknown as { after(text: string): void }).after(" ");

/**
 * Puts a space between two inline items, of one tag or two (a filter's `<label>` and its count's `<span>`, a
 * year in `<small>` and a `<span>`), that touch (no text between them) when their texts would run together
 * (not in code, whose spans are a highlighter's). Cost: one query of the chosen content for the inline tags.
 */
export function separateGluedItems(root: DomElement): void {
  for (const el of root.querySelectorAll(INLINE_ITEMS)) {
    const next = el.nextSibling as DomElement | null;
    if (next?.nodeType !== 1 || !INLINE_ITEM_TAGS.has(next.tagName) || inCode(el)) continue;
    if (ENDS_IN_WORD.test(el.textContent ?? "") && STARTS_WITH_WORD.test(next.textContent ?? ""))
      spaceAfter(el);
  }
}
