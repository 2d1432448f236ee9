/**
 * The measuring hooks given to the vendored Readability (`vendor/readability/`): the same results
 * as its own reads, in fewer walks. Readability reads an element's `textContent` for every
 * question it asks of it, and linkedom walks the whole subtree for each read: its conditional
 * cleaning walked each candidate block about fifteen times (its text, its lists, its links, its
 * headings, each tag count), and its link density twice plus once per link. Here each of those is
 * one walk (`subtree-text.ts`); the emptiness test stops at the first character of text; the
 * candidates' link densities are measured together, one walk of each outermost candidate.
 */
import { someAncestor } from "./dom-shape";
import type { DomElement } from "./dom-types";
import { hasSolidText, measureSubtree } from "./subtree-text";
import {
  type BlockMeasures,
  DIV_TO_P_ELEMS,
  REGEXPS,
  type ReadabilityHooks,
} from "./vendor/readability/readability.js";

/** What Readability reads of an element beyond `DomElement`. */
interface ReaderElement extends DomElement {
  _readabilityDataTable?: boolean;
  /** Set on the candidates Readability scores. */
  readability?: unknown;
}

/** Kinds of descendants the conditional cleaning counts or measures (bits). */
const LINK = 1;
const LIST = 2;
const HEADING = 4;
const TEXTISH = 8;
const EMBED = 16;
const P = 32;
const IMG = 64;
const LI = 128;
const INPUT = 256;
const TABLE = 512;
const CANDIDATE = 1024;
/** Kinds found by a selector query (tag names compared in lower case, template contents skipped). */
const QUERIED = LIST | HEADING | TEXTISH | EMBED;
/** Kinds whose text is measured. */
const MEASURED = LINK | LIST | HEADING | TEXTISH | EMBED;

/** adWords and loadingWords match whole texts of at most 13 characters; longer texts are not tested. */
const MAX_WORDS_TEXT = 64;

const TEXTISH_TAGS = new Set(["SPAN", "LI", "TD", ...DIV_TO_P_ELEMS].map((t) => t.toLowerCase()));
const kinds = new Map<string, number>();

/** The kinds of an element by its local name (a query matches names case-blind; a count by exact name). */
function kindOf(name: string): number {
  let kind = kinds.get(name);
  if (kind === undefined) {
    const lower = name.toLowerCase();
    kind =
      (name === "a" ? LINK : 0) |
      (lower === "ul" || lower === "ol" ? LIST : 0) |
      (/^h[1-6]$/.test(lower) ? HEADING : 0) |
      (TEXTISH_TAGS.has(lower) ? TEXTISH : 0) |
      (lower === "object" || lower === "embed" || lower === "iframe" ? EMBED : 0) |
      (name === "p" ? P : 0) |
      (name === "img" ? IMG : 0) |
      (name === "li" ? LI : 0) |
      (name === "input" ? INPUT : 0) |
      (name === "table" ? TABLE : 0);
    if (kinds.size < 256) kinds.set(name, kind);
  }
  return kind;
}

/** A link counts at 0.3 when it points within the page. */
function hashLinkWeight(a: DomElement): number {
  const href = a.getAttribute("href");
  return href && REGEXPS.hashUrl.test(href) ? 0.3 : 1;
}

const isCandidate = (el: DomElement) => (el as ReaderElement).readability !== undefined;

/**
 * Sets the link density (Readability's `_getLinkDensity`) of `top` and, with `nested`, of each candidate it
 * holds, from one walk of it (links added up in document order, as Readability adds them).
 */
function measureDensities(top: DomElement, densities: Map<DomElement, number>, nested: boolean) {
  const { lengths, inside, elements, marks } = measureSubtree(
    top,
    (el) => (nested && isCandidate(el) ? CANDIDATE : 0) | (el.localName === "a" ? LINK : 0),
  );
  const weighted = elements.map((el, i) => (marks[i] & LINK ? lengths[i + 1] * hashLinkWeight(el) : 0));
  const densityAt = (range: number) => {
    let links = 0;
    for (let j = range; j < range + inside[range]; j++) if (marks[j] & LINK) links += weighted[j];
    return lengths[range] === 0 ? 0 : links / lengths[range];
  };
  densities.set(top, densityAt(0));
  elements.forEach((el, i) => {
    if (marks[i] & CANDIDATE) densities.set(el, densityAt(i + 1));
  });
  return densities;
}

/** The link density of every candidate, one walk of each outermost one. */
function linkDensities(candidates: DomElement[]): Map<DomElement, number> {
  const densities = new Map<DomElement, number>();
  for (const top of candidates) {
    const outermost = !someAncestor(top.parentElement, null, isCandidate);
    if (outermost && !densities.has(top)) measureDensities(top, densities, true);
  }
  return densities;
}

/** What the conditional cleaning reads of a block, from one walk of it. */
function measureBlock(node: DomElement): BlockMeasures<DomElement> {
  const embeds: DomElement[] = [];
  const m: BlockMeasures<DomElement> = {
    ...{ textLength: 0, commas: 0, shortText: null, listLength: 0, headingLength: 0, textishLength: 0 },
    ...{ linkLength: 0, p: 0, img: 0, li: 0, input: 0, hasDataTable: false, embeds },
  };
  const { lengths, elements, marks, commas } = measureSubtree(node, (el, inTemplate) => {
    let kind = kindOf(el.localName);
    if (inTemplate) kind &= ~QUERIED;
    if (kind & P) m.p++;
    if (kind & IMG) m.img++;
    if (kind & LI) m.li++;
    if (kind & INPUT) m.input++;
    if (kind & TABLE && (el as ReaderElement)._readabilityDataTable) m.hasDataTable = true;
    if (kind & EMBED) embeds.push(el);
    return kind & MEASURED;
  });
  m.textLength = lengths[0];
  m.commas = commas;
  if (m.textLength <= MAX_WORDS_TEXT)
    m.shortText = (node.textContent ?? "").trim().replace(REGEXPS.normalize, " ");
  marks.forEach((kind, i) => {
    const length = lengths[i + 1];
    if (kind & LIST) m.listLength += length;
    if (kind & HEADING) m.headingLength += length;
    if (kind & TEXTISH) m.textishLength += length;
    if (kind & LINK) m.linkLength += length * hashLinkWeight(elements[i]);
  });
  return m;
}

/** Readability's text measures, each in one walk (same results as its own). */
export const MEASURING_HOOKS: ReadabilityHooks<DomElement> = {
  measureBlock,
  linkDensity: (element) => measureDensities(element, new Map(), false).get(element) ?? 0,
  linkDensities,
  hasText: hasSolidText,
};
