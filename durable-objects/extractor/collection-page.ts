import { PRICE_MARK, removeCardMarks } from "./card-marks";
import { repeats } from "./dom-shape";
import { textLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { GRID_WRAPPER_ATTR } from "./vocabulary/class-words";

/** A grid has at least this many priced cards under one parent. */
export const MIN_PRICED_CARDS = 3;
/** A link label is a card's control when this share of the grid's cards repeats it word for word... */
export const CONTROL_SHARE = 0.5;
/** ... and it is at most this long (a title is longer, and differs from card to card). */
export const MAX_CONTROL_CHARS = 40;
/** A card is at most this long: a block holding more is a section of the page, not a card. */
export const MAX_PRICED_CARD_CHARS = 1500;

/** The card holding a price mark: its nearest ancestor (below root) that repeats among its siblings and holds a link. */
function cardOf(mark: DomElement, root: DomElement): DomElement | null {
  for (let n: DomElement | null = mark; n && n !== root; n = n.parentElement) {
    if (!n.parentElement || n.parentElement.children.length < MIN_PRICED_CARDS || !repeats(n)) continue;
    if (!n.querySelector("a[href]") && n.tagName !== "A") continue;
    return textLength(n) <= MAX_PRICED_CARD_CHARS ? n : null;
  }
  return null;
}

/** The grids of priced cards under root: each parent with its cards. */
function pricedGrids(root: DomElement): DomElement[][] {
  const marks = root.querySelectorAll(PRICE_MARK);
  if (marks.length < MIN_PRICED_CARDS) return [];
  const grids = new Map<DomElement, Set<DomElement>>();
  const done = new Set<DomElement>();
  for (const mark of marks) {
    if (done.has(mark)) continue;
    const card = cardOf(mark, root);
    if (!card?.parentElement) continue;
    for (const m of card.querySelectorAll(PRICE_MARK)) done.add(m);
    grids.set(card.parentElement, (grids.get(card.parentElement) ?? new Set()).add(card));
  }
  return [...grids.values()].filter((cards) => cards.size >= MIN_PRICED_CARDS).map((cards) => [...cards]);
}

/** A page of results shows at least this many cards (a slider of other products shows a handful). */
export const MIN_RESULT_CARDS = 8;

/** Whether a block labelled a filter, sorter or pager is the wrapper of a page of priced results (the content, not the widget). */
export function wrapsPricedGrid(el: DomElement, label: string): boolean {
  return GRID_WRAPPER_ATTR.test(label) && holdsPricedResults(el);
}

/** Whether the element holds a page of priced results (a grid of at least MIN_RESULT_CARDS priced cards). */
export const holdsPricedResults = (el: DomElement) =>
  pricedGrids(el).some((cards) => cards.length >= MIN_RESULT_CARDS);

/** A run of at least this many adjacent sibling links is a tag list (each card's own tags), not a control. */
export const MIN_TAG_RUN = 3;

/** How many links stand side by side with `a` (itself included). */
function linkRun(a: DomElement): number {
  let run = 1;
  for (const side of ["previousElementSibling", "nextElementSibling"] as const)
    for (let s = a[side]; s?.tagName === "A" && run < MIN_TAG_RUN; s = s[side]) run++;
  return run;
}

/** The link's label when it may be a control: short, and not one of a run of tag links. */
function controlLabel(a: DomElement): string {
  if (linkRun(a) >= MIN_TAG_RUN) return "";
  const label = textOf(a);
  return label.length <= MAX_CONTROL_CHARS ? label : "";
}

type LinkLabel = (a: DomElement, card: DomElement) => string;

/**
 * Removes the links every card of a grid repeats with the same label (its buttons), keeping titles.
 * `labelOf` gives a link's label when it may be a control ("" when it may not); the label must be
 * shared by at least CONTROL_SHARE of the cards (and MIN_PRICED_CARDS of them).
 */
export function removeRepeatedControls(cards: DomElement[], labelOf: LinkLabel = controlLabel): void {
  const counts = new Map<string, number>();
  for (const card of cards) {
    const labels = new Set([...card.querySelectorAll("a")].map((a) => labelOf(a, card)).filter(Boolean));
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const least = Math.max(MIN_PRICED_CARDS, cards.length * CONTROL_SHARE);
  const controls = new Set([...counts].filter(([, n]) => n >= least).map(([label]) => label));
  if (!controls.size) return;
  for (const card of cards)
    for (const a of [...card.querySelectorAll("a")]) if (controls.has(labelOf(a, card))) a.remove();
}

/** Cleans the grids of priced product cards in the chosen content of their per-card controls. */
export function cleanProductCards(root: DomElement): void {
  for (const cards of pricedGrids(root)) removeCardMarks(cards);
}
