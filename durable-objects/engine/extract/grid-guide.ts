/**
 * A category page's guide outside its grid: a shop may print a page of priced results in its
 * `<main>` and the category's buying guide after it, outside the landmark. The region (the grid)
 * wins the choice over Readability's article (the guide), and the guide would be lost: it is added.
 */
import { holdsPricedResults } from "./collection-page";
import type { DomElement } from "./dom-types";

/** The guide's paragraphs missing from the region hold at least this many characters... */
export const MIN_GUIDE_CHARS = 500;
/** ... and this many times what the region already holds of them (else the article is part of the region). */
export const GUIDE_OVER_REGION_SHARE = 3;
/** A paragraph shorter than this is not weighed (a caption, a button's line). */
const GUIDE_PARAGRAPH_CHARS = 80;
/** A paragraph is found in the region by its opening this long. */
const OPENING_CHARS = 60;

const squeezed = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Whether Readability's article (`article`) is a guide that the chosen region (`region`) misses: its
 * paragraphs of 80+ characters not in the region hold 500+ characters and three times those in it,
 * and the region holds a page of priced results. Cost: one `p` query of the article and the
 * region's text, then a price-mark query of the region only when the paragraphs are missing.
 */
export function isGuideBesideGrid(region: DomElement, article: DomElement): boolean {
  let outside = 0;
  let inside = 0;
  let regionText: string | null = null;
  for (const p of article.querySelectorAll("p")) {
    const text = squeezed(p.textContent ?? "");
    if (text.length < GUIDE_PARAGRAPH_CHARS) continue;
    regionText ??= squeezed(region.textContent ?? "");
    if (regionText.includes(text.slice(0, OPENING_CHARS))) inside += text.length;
    else outside += text.length;
  }
  return (
    outside >= MIN_GUIDE_CHARS && outside > inside * GUIDE_OVER_REGION_SHARE && holdsPricedResults(region)
  );
}
