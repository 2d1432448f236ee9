/**
 * Listings that print each card twice inside the card (a desktop and a phone layout of one event,
 * job or post, each with the title as a heading): the run of cards keeps the first copy of each
 * text of a card. A list whose cards do not repeat their heading is left as it is.
 */
import { dominantCardList, MIN_CARDS } from "./card-lists";
import { removeRepeatedTexts } from "./collection-page";
import { textOf } from "./dom-text";
import type { DomElement } from "./dom-types";

/** The cards are printed twice when at least this share of them shows its heading twice. */
export const COPIED_CARDS_SHARE = 0.5;

/** Whether the card shows one heading's text twice (its title in two layouts). */
function repeatsHeading(card: DomElement): boolean {
  const seen = new Set<string>();
  for (const h of card.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const text = textOf(h);
    if (text && seen.has(text)) return true;
    seen.add(text);
  }
  return false;
}

/** Removes the second copy of the texts of each card in the content's run of cards, when the cards print their heading twice. */
export function removeCardCopies(root: DomElement): void {
  // Cards that print their title twice show two headings each: fewer headings, no walk for cards.
  if (root.querySelectorAll("h2, h3, h4, h5, h6").length < MIN_CARDS * 2) return;
  const list = dominantCardList(root, MIN_CARDS);
  if (!list) return;
  const cards = Array.from(list.node.children);
  const copied = cards.filter(repeatsHeading);
  if (copied.length >= cards.length * COPIED_CARDS_SHARE) removeRepeatedTexts(copied);
}
