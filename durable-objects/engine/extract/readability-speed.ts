/**
 * Faster stand-ins for Readability 0.6.0's text measures on our instance, with the same results.
 * Readability reads an element's `textContent` for every question it asks of it, and linkedom
 * walks the whole subtree for each read: its conditional cleaning walks every candidate block
 * about fifteen times (its text, its lists, its links, its headings, each tag count), and its
 * link density twice plus once per link. Here each of those is one walk (`subtree-text.ts`);
 * the emptiness test stops at the first character of text; the ten tags `_prepArticle` cleans
 * one by one are looked for in one query first (our page has none of them left by then).
 * One check differs on purpose: a block dropped only for being "a little linky" stays when it
 * holds a paragraph of prose (`linked-prose.ts`).
 */
import type { DomElement } from "./dom-types";
import { hasSolidText, measureSubtree } from "./subtree-text";
import { isLinkedProse } from "./linked-prose";

/** The parts of Readability 0.6.0 this relies on (version pinned in package.json; internal, so not typed). */
interface ReaderInternals {
  ELEMENT_NODE: number;
  FLAG_CLEAN_CONDITIONALLY: number;
  DIV_TO_P_ELEMS: Set<string>;
  REGEXPS: { hashUrl: RegExp; normalize: RegExp; adWords: RegExp; loadingWords: RegExp };
  _allowedVideoRegex: RegExp;
  _linkDensityModifier: number;
  _flagIsActive(flag: number): boolean;
  _getAllNodesWithTag(node: DomElement, tags: string[]): ArrayLike<DomElement>;
  _removeNodes(nodes: ArrayLike<DomElement>, filter: (node: DomElement) => boolean): void;
  _hasAncestorTag(
    node: DomElement,
    tag: string,
    maxDepth?: number,
    filter?: (el: DomElement) => boolean,
  ): boolean;
  _getClassWeight(node: DomElement): number;
  _initializeNode(node: DomElement): void;
  _isElementWithoutContent(node: DomElement): boolean;
  _getLinkDensity(node: DomElement): number;
  _cleanConditionally(e: DomElement, tag: string): void;
  _clean(e: DomElement, tag: string): void;
  _prepArticle(article: DomElement): void;
}

/** What Readability reads of an element beyond `DomElement`. */
interface ReaderElement extends DomElement {
  attributes: ArrayLike<{ value: string }>;
  innerHTML: string;
  getElementsByTagName(tag: string): ArrayLike<DomElement>;
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

/** The tags `_prepArticle` removes one query at a time. */
const CLEANED_TAGS = [
  "object",
  "embed",
  "footer",
  "link",
  "aside",
  "iframe",
  "input",
  "textarea",
  "select",
  "button",
];
const CLEANED = new Set(CLEANED_TAGS);
const CLEANED_SELECTOR = CLEANED_TAGS.join(",");

/** adWords and loadingWords match whole texts of at most 13 characters; longer texts are not tested. */
const MAX_WORDS_TEXT = 64;

/** What Readability's conditional cleaning reads of a block, from one walk of it. */
interface BlockMeasures {
  /** `_getInnerText(node).length`. */
  text: number;
  /** Commas in its text. */
  commas: number;
  /** Its text folded, when short enough to be ad or loading words; else null. */
  short: string | null;
  /** Text of its `ul`/`ol` lists, each counted, nested ones again. */
  lists: number;
  /** Text of its headings, and of its text-like blocks (`_getTextDensity`'s numerators). */
  headings: number;
  textish: number;
  /** Text of its links, hash links counted at 0.3. */
  links: number;
  p: number;
  img: number;
  li: number;
  input: number;
  dataTable: boolean;
  embeds: DomElement[];
}

/** Makes a Readability instance measure text in single walks; its results are unchanged. */
export function speedUpReadability(reader: unknown): void {
  const r = reader as ReaderInternals;
  if (
    typeof r._cleanConditionally !== "function" ||
    typeof r._getLinkDensity !== "function" ||
    typeof r._isElementWithoutContent !== "function" ||
    !(r.DIV_TO_P_ELEMS instanceof Set) ||
    !r.REGEXPS?.hashUrl
  )
    return;
  const kinds = new Map<string, number>();
  const textish = new Set(["SPAN", "LI", "TD", ...r.DIV_TO_P_ELEMS].map((t) => t.toLowerCase()));
  const kindOf = (name: string): number => {
    let kind = kinds.get(name);
    if (kind === undefined) {
      const lower = name.toLowerCase();
      kind =
        (name === "a" ? LINK : 0) |
        (lower === "ul" || lower === "ol" ? LIST : 0) |
        (/^h[1-6]$/.test(lower) ? HEADING : 0) |
        (textish.has(lower) ? TEXTISH : 0) |
        (lower === "object" || lower === "embed" || lower === "iframe" ? EMBED : 0) |
        (name === "p" ? P : 0) |
        (name === "img" ? IMG : 0) |
        (name === "li" ? LI : 0) |
        (name === "input" ? INPUT : 0) |
        (name === "table" ? TABLE : 0);
      if (kinds.size < 256) kinds.set(name, kind);
    }
    return kind;
  };
  const hashLinkWeight = (a: DomElement) => {
    const href = a.getAttribute("href");
    return href && r.REGEXPS.hashUrl.test(href) ? 0.3 : 1;
  };

  r._isElementWithoutContent = (node) =>
    node.nodeType === r.ELEMENT_NODE &&
    !hasSolidText(node) &&
    (!node.children.length ||
      node.children.length ===
        (node as ReaderElement).getElementsByTagName("br").length +
          (node as ReaderElement).getElementsByTagName("hr").length);

  const densityOf = (element: DomElement) => {
    const { lengths, elements } = measureSubtree(element, (el) => (el.localName === "a" ? LINK : 0));
    if (lengths[0] === 0) return 0;
    let links = 0;
    elements.forEach((a, i) => {
      links += lengths[i + 1] * hashLinkWeight(a);
    });
    return links / lengths[0];
  };
  // Readability weighs each candidate (the nested ancestors of its scored paragraphs) by its link
  // density, one after the other, and the page does not change until it prepares the article: the
  // candidates are measured together, one walk of each outermost candidate, when the first is asked.
  let candidates: DomElement[] = [];
  let candidateDensities: Map<DomElement, number> | null = null;
  const measureCandidates = () => {
    const densities = new Map<DomElement, number>();
    const isCandidate = (el: DomElement) => (el as ReaderElement).readability !== undefined;
    for (const top of candidates) {
      let outermost = true;
      for (let up = top.parentNode; up && outermost; up = up.parentNode)
        if (isCandidate(up as DomElement)) outermost = false;
      if (!outermost || densities.has(top)) continue;
      const { lengths, inside, elements, marks } = measureSubtree(
        top,
        (el) => (isCandidate(el) ? CANDIDATE : 0) | (el.localName === "a" ? LINK : 0),
      );
      // Each link's weighted length, added up per candidate in document order as Readability adds them.
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
    }
    return densities;
  };
  r._getLinkDensity = (element) => {
    if ((element as ReaderElement).readability === undefined) return densityOf(element);
    candidateDensities ??= measureCandidates();
    return candidateDensities.get(element) ?? densityOf(element);
  };

  const measure = (node: DomElement): BlockMeasures => {
    const m: BlockMeasures = {
      ...{ text: 0, commas: 0, short: null, lists: 0, headings: 0, textish: 0, links: 0 },
      ...{ p: 0, img: 0, li: 0, input: 0, dataTable: false, embeds: [] },
    };
    const { lengths, elements, marks, commas } = measureSubtree(node, (el, inTemplate) => {
      let kind = kindOf(el.localName);
      if (inTemplate) kind &= ~QUERIED;
      if (kind & P) m.p++;
      if (kind & IMG) m.img++;
      if (kind & LI) m.li++;
      if (kind & INPUT) m.input++;
      if (kind & TABLE && (el as ReaderElement)._readabilityDataTable) m.dataTable = true;
      if (kind & EMBED) m.embeds.push(el);
      return kind & MEASURED;
    });
    m.text = lengths[0];
    m.commas = commas;
    if (m.text <= MAX_WORDS_TEXT) m.short = (node.textContent ?? "").trim().replace(r.REGEXPS.normalize, " ");
    marks.forEach((kind, i) => {
      const length = lengths[i + 1];
      if (kind & LIST) m.lists += length;
      if (kind & HEADING) m.headings += length;
      if (kind & TEXTISH) m.textish += length;
      if (kind & LINK) m.links += length * hashLinkWeight(elements[i]);
    });
    return m;
  };

  // Readability's own check, step by step, on the measures of one walk.
  const shouldRemove = (node: DomElement, tag: string): boolean => {
    const isDataTable = (t: DomElement) => !!(t as ReaderElement)._readabilityDataTable;
    const m = measure(node);
    const isList = tag === "ul" || tag === "ol" || m.lists / m.text > 0.9;
    if (tag === "table" && isDataTable(node)) return false;
    if (r._hasAncestorTag(node, "table", -1, isDataTable)) return false;
    if (r._hasAncestorTag(node, "code")) return false;
    if (m.dataTable) return false;
    const weight = r._getClassWeight(node);
    if (weight < 0) return true;
    if (m.commas >= 10) return false;
    const { p, img, input } = m;
    const li = m.li - 100;
    const headingDensity = m.text === 0 ? 0 : m.headings / m.text;
    let embedCount = 0;
    for (const embed of m.embeds as ReaderElement[]) {
      for (let j = 0; j < embed.attributes.length; j++)
        if (r._allowedVideoRegex.test(embed.attributes[j].value)) return false;
      if (embed.tagName === "object" && r._allowedVideoRegex.test(embed.innerHTML)) return false;
      embedCount++;
    }
    if (m.short !== null && (r.REGEXPS.adWords.test(m.short) || r.REGEXPS.loadingWords.test(m.short)))
      return true;
    const contentLength = m.text;
    const linkDensity = m.text === 0 ? 0 : m.links / m.text;
    const textDensity = m.text === 0 ? 0 : m.textish / m.text;
    const isFigureChild = r._hasAncestorTag(node, "figure");
    const remove =
      (!isFigureChild && img > 1 && p / img < 0.5) ||
      (!isList && li > p) ||
      input > Math.floor(p / 3) ||
      (!isList &&
        !isFigureChild &&
        headingDensity < 0.9 &&
        contentLength < 25 &&
        (img === 0 || img > 2) &&
        linkDensity > 0) ||
      (!isList &&
        weight < 25 &&
        linkDensity > 0.2 + r._linkDensityModifier &&
        !isLinkedProse(node, linkDensity)) ||
      (weight >= 25 && linkDensity > 0.5 + r._linkDensityModifier) ||
      (embedCount === 1 && contentLength < 75) ||
      embedCount > 1 ||
      (img === 0 && textDensity === 0);
    // Simple lists of images stay.
    if (isList && remove) {
      for (const child of Array.from(node.children)) if (child.children.length > 1) return remove;
      if (img === m.li) return false;
    }
    return remove;
  };
  r._cleanConditionally = (e, tag) => {
    if (!r._flagIsActive(r.FLAG_CLEAN_CONDITIONALLY)) return;
    r._removeNodes(r._getAllNodesWithTag(e, [tag]), (node) => shouldRemove(node, tag));
  };

  const initialize = r._initializeNode.bind(r);
  r._initializeNode = (node) => {
    candidates.push(node);
    initialize(node);
  };

  // Only removals happen between `_prepArticle`'s `_clean` calls: an article found without any of
  // the ten tags stays without them.
  const clean = r._clean.bind(r);
  const prep = r._prepArticle.bind(r);
  let clear: DomElement | null = null;
  r._prepArticle = (article) => {
    // The page changes from here: candidates of a later attempt are measured again.
    candidates = [];
    candidateDensities = null;
    clear = null;
    try {
      prep(article);
    } finally {
      clear = null;
    }
  };
  r._clean = (e, tag) => {
    if (CLEANED.has(tag)) {
      if (clear === e) return;
      if (!e.querySelector(CLEANED_SELECTOR)) {
        clear = e;
        return;
      }
    }
    clean(e, tag);
  };
}
