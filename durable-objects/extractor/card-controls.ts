/**
 * Listings whose cards each repeat the same links ("More like this", "Read more", "Apply now"): the labels
 * that most cards of the content's dominant run print word for word are its buttons, not its text. A link in
 * a card's heading is part of its title, and a link beside other links is one of the card's tags: both stay.
 */
import { type CardList, cardsOf, MIN_CARDS } from "./card-lists";
import { MAX_CONTROL_CHARS, MIN_PRICED_CARDS, removeRepeatedControls } from "./collection-page";
import { foldText, textOf } from "./dom-text";
import { HEADING_TAG, someAncestor } from "./dom-shape";
import type { DomElement } from "./dom-types";

/** A control's label with the whitespace of its markup around it is at most this long. */
const MAX_RAW_CONTROL_CHARS = 400;

/** Whether the link sits in a heading of the card (part of its title). */
const inHeading = (a: DomElement, card: DomElement) =>
  someAncestor(a.parentElement, card, (n) => HEADING_TAG.test(n.tagName));

/** The link's label when it may be a control: short, alone (no link beside it), outside the title. */
function controlLabel(a: DomElement, card: DomElement): string {
  if (a.previousElementSibling?.tagName === "A" || a.nextElementSibling?.tagName === "A") return "";
  const label = textOf(a);
  return label.length <= MAX_CONTROL_CHARS && !inHeading(a, card) ? label : "";
}

/** The links of root whose short label at least `least` of them share (one link query; most pages have few). */
function repeatedLinks(root: DomElement, least: number): DomElement[] {
  const byLabel = new Map<string, DomElement[]>();
  for (const a of root.querySelectorAll("a")) {
    // A link holding a whole card is no control: its text is not folded.
    const raw = a.textContent ?? "";
    if (raw.length > MAX_RAW_CONTROL_CHARS) continue;
    const label = foldText(raw);
    if (!label || label.length > MAX_CONTROL_CHARS) continue;
    const links = byLabel.get(label);
    if (links) links.push(a);
    else byLabel.set(label, [a]);
  }
  return [...byLabel.values()].filter((links) => links.length >= least).flat();
}

/** The run of cards holding the most text among the ancestors of the links (a run around none of them has no repeated link to lose). */
function cardListAround(links: DomElement[], root: DomElement): CardList | null {
  const seen = new Set<DomElement>();
  let best: CardList | null = null;
  for (const a of links)
    for (let n = a.parentElement; n && !seen.has(n); n = n === root ? null : n.parentElement) {
      seen.add(n);
      const list = cardsOf(n, MIN_CARDS);
      if (list && (!best || list.chars > best.chars)) best = list;
    }
  return best;
}

/**
 * Removes the links that the cards of a run repeat with one label (their buttons), in the run
 * holding the most text around such links. Cost: one link query of the chosen content; the card
 * test on the ancestors of the links whose label repeats, then one link query per card.
 */
export function removeCardControls(root: DomElement): void {
  const list = cardListAround(repeatedLinks(root, MIN_PRICED_CARDS), root);
  if (list) removeRepeatedControls(Array.from(list.node.children), controlLabel);
}
