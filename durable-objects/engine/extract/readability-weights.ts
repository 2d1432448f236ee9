/**
 * Readability deletes every block whose label reads as an unlikely candidate before it scores
 * anything; a block labelled a header (`listicle-header`, `layout__header`) that holds a story's
 * title and lead paragraphs goes with the page's own header. This hook keeps it.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** The parts of Readability 0.6.0 this relies on (version pinned in package.json; internal, so not typed). */
interface ReaderInternals {
  REGEXPS?: { unlikelyCandidates?: RegExp };
  _removeAndGetNext(node: unknown): unknown;
  _getNextNode(node: unknown, ignoreSelfAndKids?: boolean): unknown;
  _isProbablyVisible(node: unknown): boolean;
}

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
 * Makes a Readability instance keep a shown block that reads as an unlikely candidate only by the
 * word "header" (`listicle-header`, `icp-header`, `layout__header`) when its paragraphs hold prose:
 * a story's or a service's title and lead, which Readability would delete with the page's own
 * header. The page's header holds links and a tagline, not paragraphs. With `titled`, only a block
 * holding the page's `<h1>` (the title and its lead, not a section's header). Cost: a label test on each
 * node Readability removes; a paragraph walk on the shown ones labelled a header.
 */
export function keepHeadersHoldingProse(reader: unknown, titled = false): void {
  const r = reader as ReaderInternals;
  const unlikely = r.REGEXPS?.unlikelyCandidates;
  if (!unlikely || typeof r._removeAndGetNext !== "function" || typeof r._getNextNode !== "function") return;
  const remove = r._removeAndGetNext.bind(r);
  r._removeAndGetNext = (node) => {
    const el = node as DomElement;
    const cls = el.getAttribute?.("class") ?? "";
    const label = `${cls} ${el.getAttribute?.("id") ?? ""}`;
    // A class naming the block a header (an id holding the word is a heading's slug or the page's region).
    if (
      /header/i.test(cls) &&
      el.tagName !== "HTML" &&
      el.tagName !== "BODY" &&
      !unlikely.test(label.replace(/header/gi, " ")) &&
      r._isProbablyVisible(el) &&
      (!titled || el.querySelector("h1") !== null) &&
      holdsHeaderProse(el)
    ) {
      return r._getNextNode(el);
    }
    return remove(node);
  };
}
