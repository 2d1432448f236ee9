/**
 * Link rails beside a story: a block of like items, each a headline link with perhaps its byline,
 * date or teaser ("Top video", "Don't miss", other headlines, a category menu). Told by structure
 * alone (repeated item shape, link density), never by words, so it holds in every language. A short
 * story may be a small part of its page beside such rails, so a rail goes whatever its share, as
 * long as the story's own prose is there.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { shapeOf } from "./dom-shape";

/** A rail has at least this many items of one shape... */
export const MIN_RAIL_ITEMS = 3;
/** ... each at most this long (a headline with a byline, a date, a line of teaser)... */
export const MAX_RAIL_ITEM_CHARS = 300;
/** ... and at least this share link text; */
export const MIN_ITEM_LINK_SHARE = 0.4;
/** the items hold at least this share of the block's text. */
export const MIN_RAIL_COVER = 0.8;
/**
 * Rails go only when the prose outside them (paragraphs, links left out) is the story: at least this
 * many times as long as a rail's item on average (a measure that holds in every script, where a
 * count of characters would not: a Japanese sentence is a third of an English one's length).
 */
export const MIN_STORY_OVER_ITEM = 2;
/** A heading is a rail's title when it is at most this long and stands right before the rail. */
const MAX_TITLE_CHARS = 80;

/** Whether a child of a block is a rail item: short, and mostly its link. */
function isRailItem(item: DomElement): boolean {
  const length = textLength(item);
  return length > 0 && length <= MAX_RAIL_ITEM_CHARS && linkTextLength(item) >= length * MIN_ITEM_LINK_SHARE;
}

/** Whether the block is a rail: its children of one shape are rail items and hold its text. */
function isRail(block: DomElement): boolean {
  const children = Array.from(block.children);
  if (children.length < MIN_RAIL_ITEMS) return false;
  const byShape = new Map<string, DomElement[]>();
  for (const child of children) byShape.set(shapeOf(child), [...(byShape.get(shapeOf(child)) ?? []), child]);
  const items = [...byShape.values()].sort((a, b) => b.length - a.length)[0];
  if (items.length < MIN_RAIL_ITEMS || !items.every(isRailItem)) return false;
  const covered = items.reduce((sum, item) => sum + textLength(item), 0);
  return covered >= textLength(block) * MIN_RAIL_COVER;
}

/** Whether `el` is `block` or inside it. */
function within(el: DomElement, block: DomElement): boolean {
  for (let n: DomElement | null = el; n; n = n.parentElement) if (n === block) return true;
  return false;
}

/** The outermost rails under `root`, in document order. */
export function railsOf(root: DomElement): DomElement[] {
  const rails: DomElement[] = [];
  for (const block of root.querySelectorAll("ul, ol, div, section")) {
    if (rails.some((rail) => within(block, rail))) continue;
    if (isRail(block)) rails.push(block);
  }
  return rails;
}

/** Characters of paragraph prose outside the rails, links left out. */
function storyChars(root: DomElement, rails: DomElement[]): number {
  let chars = 0;
  for (const p of root.querySelectorAll("p")) {
    if (rails.some((rail) => within(p, rail))) continue;
    chars += textLength(p) - linkTextLength(p);
  }
  return chars;
}

/** The mean length of the rails' items (children). */
function meanItemChars(rails: DomElement[]): number {
  const items = rails.flatMap((rail) => Array.from(rail.children));
  return items.reduce((sum, item) => sum + textLength(item), 0) / (items.length || 1);
}

/** The short heading standing right before a rail (its "Top video"), or null. */
function titleOf(rail: DomElement): DomElement | null {
  const before = rail.previousElementSibling;
  if (!before || !/^H[1-6]$/.test(before.tagName)) return null;
  return textLength(before) <= MAX_TITLE_CHARS ? before : null;
}

/** Removes the link rails of a story, with their titles, when the story's own prose is there. */
export function removeLinkRails(root: DomElement): void {
  const rails = railsOf(root);
  if (!rails.length || storyChars(root, rails) < meanItemChars(rails) * MIN_STORY_OVER_ITEM) return;
  for (const rail of rails) {
    titleOf(rail)?.remove();
    rail.remove();
  }
}
