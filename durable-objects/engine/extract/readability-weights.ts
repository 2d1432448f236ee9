/**
 * Readability's conditional cleaning removes every block whose class/id reads negative before it
 * weighs anything else, and it reads words inside other words: a layout utility
 * (`overflow-hidden`, `hidden-mobile`) or a "media" block (a chart, a video with its transcript)
 * loses the article text it wraps, as does a product description in an `overflow-hidden`
 * accordion, or a page builder's text block (`so-panel widget widget_sow-editor`: a widget of
 * prose), or an accordion's folded panel (`kt-accordion-panel-hidden`). Those words are not taken as a verdict: the block faces the same checks as any other
 * (link density, lists, images, inputs), and our own junk-label pass still removes real
 * boilerplate afterwards.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Class/id parts that match Readability's negative words without naming boilerplate. */
const MISLEADING_NEGATIVE =
  /overflow-(?:[xy]-)?hidden|[a-z]+-hidden-(?:mobile|tablet|desktop|phone)|hidden-(?:xs|sm|md|lg|xl|mobile|tablet|desktop|phone)|[\w-]*(?:accordion|collapse|tab-?content|tab-?pane)[\w-]*-hidden|media/gi;

/** A page builder's text block (`widget_text`, `widget_sow-editor`, `elementor-widget-text-editor`): a widget of prose. */
const TEXT_WIDGET = /widget[\w-]*(?:text|editor)|(?:text|editor)[\w-]*widget/i;

/**
 * Class tokens styling a block's own header (`kt-pane-header-alignment-left`, `header-style-2`):
 * how an accordion's or a card's title looks. Readability deletes any block whose label holds
 * "header" as an unlikely candidate, with the panels such a block wraps.
 */
const HEADER_STYLE_TOKEN =
  /(?:^|\s)\S*header-(?:alignment|align|aligned|style|color|size|font|position|icons?)\S*(?=\s|$)/gi;

/** The parts of Readability 0.6.0 this relies on (version pinned in package.json; internal, so not typed). */
interface ReaderInternals {
  REGEXPS?: { negative?: RegExp; unlikelyCandidates?: RegExp };
  _cleanConditionally(e: unknown, tag: string): void;
  _getClassWeight(node: unknown): number;
  _removeAndGetNext(node: unknown): unknown;
  _getNextNode(node: unknown, ignoreSelfAndKids?: boolean): unknown;
  _isProbablyVisible(node: unknown): boolean;
}

/** A block labelled a header is a section's head and lead, not the page's header, when its paragraphs hold this many characters of non-link text. */
export const MIN_HEADER_PROSE = 200;

/** Whether the element's class/id reads negative to Readability only through misleading words. */
function misleadinglyNegative(el: DomElement, negative: RegExp): boolean {
  const strip = (s: string) => {
    const t = s.replace(MISLEADING_NEGATIVE, " ");
    return TEXT_WIDGET.test(s) ? t.replace(/widget/gi, " ") : t;
  };
  const className = el.getAttribute("class") ?? "";
  const id = el.getAttribute("id") ?? "";
  return !negative.test(strip(className)) && !negative.test(strip(id));
}

/**
 * Makes a Readability instance weigh blocks labelled negative only by misleading words as neutral
 * while it cleans conditionally (its scoring of candidates is unchanged), unless `isJunk` says the
 * block is boilerplate. Costs one regex pass over the label of each negatively weighted block.
 */
export function keepMisleadinglyLabelledBlocks(reader: unknown, isJunk: (el: DomElement) => boolean): void {
  const r = reader as ReaderInternals;
  const negative = r.REGEXPS?.negative;
  if (!negative || typeof r._cleanConditionally !== "function" || typeof r._getClassWeight !== "function")
    return;
  const clean = r._cleanConditionally.bind(r);
  const weigh = r._getClassWeight.bind(r);
  let cleaning = false;
  r._cleanConditionally = (e, tag) => {
    cleaning = true;
    try {
      clean(e, tag);
    } finally {
      cleaning = false;
    }
  };
  r._getClassWeight = (node) => {
    const weight = weigh(node);
    if (!cleaning || weight >= 0) return weight;
    const el = node as DomElement;
    return misleadinglyNegative(el, negative) && !isJunk(el) ? 0 : weight;
  };
}

/**
 * Makes a Readability instance read a label as an unlikely candidate only when it still is one
 * without its header-style tokens (an accordion whose panes' headers are aligned left is no page
 * header). Cost: a replace on the labels that already read unlikely, none on the others.
 */
export function keepHeaderStyledBlocks(reader: unknown): void {
  const r = reader as ReaderInternals;
  const unlikely = r.REGEXPS?.unlikelyCandidates;
  if (!r.REGEXPS || !unlikely) return;
  const test = (label: string) =>
    unlikely.test(label) && unlikely.test(label.replace(HEADER_STYLE_TOKEN, " "));
  // Readability only calls `test` on it; the instance gets its own table, the shared one stays.
  r.REGEXPS = { ...r.REGEXPS, unlikelyCandidates: { test } as RegExp };
}

/** Whether the block's paragraphs hold at least MIN_HEADER_PROSE characters of non-link text. */
export function holdsHeaderProse(el: DomElement): boolean {
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
 * holding the page's `<h1>` (the title and its lead, not a section's header). Returns the blocks
 * kept (filled as Readability reads). Cost: a label test on each
 * node Readability removes; a paragraph walk on the shown ones labelled a header.
 */
export function keepHeadersHoldingProse(reader: unknown, titled = false): Set<DomElement> {
  const kept = new Set<DomElement>();
  const r = reader as ReaderInternals;
  const unlikely = r.REGEXPS?.unlikelyCandidates;
  if (!unlikely || typeof r._removeAndGetNext !== "function" || typeof r._getNextNode !== "function")
    return kept;
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
      kept.add(el);
      return r._getNextNode(el);
    }
    return remove(node);
  };
  return kept;
}
