/**
 * What a priced card of a category grid shows beside its title and price that is no part of its
 * text: the labels of the form controls cut before parsing ("Compare" beside a checkbox, "More
 * options" over a variant picker) and its badges ("New", "Best seller", "Top rated").
 */
import { camelWords, HEADING_TAG, labelOf } from "./dom-shape";
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { CARD_BADGE_ATTR } from "./vocabulary/class-words";

/** Where a card shows its price: a price class or microdata. */
export const PRICE_MARK = "[class*=price], [class*=Price], [itemprop=price]";

/** A badge is at most this long (a longer block so labelled is part of the card's text). */
export const MAX_BADGE_CHARS = 30;

/** Whether a label names a badge, its camelCase joins read as word breaks (CSS modules: `Products_productBadge__Prv_X`). */
const namesBadge = (label: string) => CARD_BADGE_ATTR.test(label) || CARD_BADGE_ATTR.test(camelWords(label));

/**
 * Removes from each card the labels and legends of its form controls (the inputs and buttons they name are
 * cut before parsing, so only the label is left) and its badges: short blocks labelled
 * badge/sticker/ribbon/flag (a camelCase word too) without a link, heading or price (a title labelled `badge`
 * stays). Cost: two queries per card of a priced grid.
 */
export function removeCardMarks(cards: DomElement[]): void {
  for (const card of cards) {
    for (const el of [...card.querySelectorAll("label, legend")]) el.remove();
    for (const el of [...card.querySelectorAll("[class], [id]")]) {
      if (!namesBadge(labelOf(el)) || HEADING_TAG.test(el.tagName)) continue;
      if (textLength(el) <= MAX_BADGE_CHARS && !el.querySelector(`a, ${PRICE_MARK}, h2, h3, h4, h5, h6`))
        el.remove();
    }
  }
}
