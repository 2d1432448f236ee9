/**
 * Readability deletes every block whose label reads as an unlikely candidate before it scores
 * anything; a block labelled a header (`listicle-header`, `layout__header`) that holds a story's
 * title and lead paragraphs goes with the page's own header. This hook (`keepUnlikelyCandidate`
 * of the vendored Readability) keeps it.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { REGEXPS } from "./vendor/readability/readability.js";

/** A block labelled a header is a section's head and lead, not the page's header, when its paragraphs hold this many characters of non-link text. */
export const MIN_HEADER_PROSE = 200;

/** Whether the block's paragraphs hold at least MIN_HEADER_PROSE characters of non-link text. */
function holdsHeaderProse(el: DomElement): boolean {
  let prose = 0;
  for (const p of el.querySelectorAll("p")) {
    prose += textLength(p) - linkTextLength(p);
    if (prose >= MIN_HEADER_PROSE) return true;
  }
  return false;
}

/**
 * Whether an unlikely candidate is one only by the word "header" in its class (`listicle-header`,
 * `icp-header`, `layout__header`; an id holding the word is a heading's slug or the page's region)
 * and its paragraphs hold prose: a story's or a service's title and lead, not the page's header
 * (which holds links and a tagline). With `titled`, only a block holding the page's `<h1>`.
 * Cost: a label test on each unlikely candidate; a paragraph walk on those labelled a header.
 */
export function isHeaderHoldingProse(el: DomElement, titled: boolean): boolean {
  const cls = el.getAttribute("class") ?? "";
  return (
    /header/i.test(cls) &&
    el.tagName !== "HTML" &&
    !REGEXPS.unlikelyCandidates.test(`${cls} ${el.getAttribute("id") ?? ""}`.replace(/header/gi, " ")) &&
    (!titled || el.querySelector("h1") !== null) &&
    holdsHeaderProse(el)
  );
}
