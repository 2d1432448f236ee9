/**
 * Link rails beside a story: a short news story printed with runs of teaser cards around it ("Top
 * video", "Don't miss", other headlines with their bylines and dates). Readability takes the story
 * with the rail when both sit in one column. A rail is known by its shape, not its words: a run of
 * like linked cards (card-lists.ts) none of which holds a paragraph as long as the story's own,
 * in an article that has a story of its own outside every run.
 */
import { isInside } from "./article-cleanup";
import { type CardList, cardsOf, MIN_CARDS } from "./card-lists";
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A story paragraph has at most this share of link text (a teaser's paragraph is its link). */
export const MAX_STORY_LINK_SHARE = 0.3;
/** The story has at least this many paragraphs outside the runs of cards. */
export const MIN_STORY_PARAGRAPHS = 2;

/** The rails hold at least this many times the text of the story beside them. */
export const RAILS_OVER_STORY = 1;

/** A rail's cards average at most this many times the story's longest paragraph. */
export const CARD_OVER_PARAGRAPH = 1;

const HEADING = /^H[2-6]$/;

/** The outermost runs of linked cards under `root`. */
function cardRuns(root: DomElement): CardList[] {
  const runs: CardList[] = [];
  for (const el of root.querySelectorAll("*")) {
    if (runs.some((run) => isInside(el, run.node))) continue;
    const run = cardsOf(el, MIN_CARDS);
    if (run) runs.push(run);
  }
  return runs;
}

/** The longest paragraph's length among `paragraphs` that are prose (little link text), or 0. */
function longestProse(paragraphs: Iterable<DomElement>): number {
  let longest = 0;
  for (const p of paragraphs) {
    const length = textLength(p);
    if (length > longest && linkTextLength(p) <= length * MAX_STORY_LINK_SHARE) longest = length;
  }
  return longest;
}

/**
 * Removes the rails of teaser cards from an article's content, with the heading that opens each:
 * only when the story outside them has MIN_STORY_PARAGRAPHS paragraphs of prose, each longer than
 * every paragraph the rails' cards hold (a listicle's items hold the story; a rail's hold teasers).
 */
export function removeStoryRails(root: DomElement): void {
  const lists = cardRuns(root);
  if (!lists.length) return;
  const runs = lists.map((list) => list.node);
  const inRun = (el: DomElement) => runs.some((run) => isInside(el, run));
  const railLongest = longestProse(runs.flatMap((run) => [...run.querySelectorAll("p")]));
  const story = [...root.querySelectorAll("p")].filter(
    (p) => !inRun(p) && linkTextLength(p) <= textLength(p) * MAX_STORY_LINK_SHARE,
  );
  const longer = story.filter((p) => textLength(p) > railLongest);
  if (longer.length < MIN_STORY_PARAGRAPHS) return;
  // A teaser card is shorter than one of the story's paragraphs; a roundup's items are longer.
  const storyLongest = Math.max(...longer.map(textLength));
  if (lists.some((list) => list.chars / list.cards > storyLongest * CARD_OVER_PARAGRAPH)) return;
  // A short story beside long rails: the rails hold more of the text than the story does (a long
  // article's run of linked items is its own list: a "best of" roundup, a glossary).
  const railChars = runs.reduce((sum, run) => sum + textLength(run), 0);
  if (railChars < (textLength(root) - railChars) * RAILS_OVER_STORY) return;
  for (const run of runs) {
    const heading = run.previousElementSibling;
    if (heading && HEADING.test(heading.tagName)) heading.remove();
    run.remove();
  }
}
