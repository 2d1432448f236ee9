/**
 * Types of the vendored Readability.js 0.6.0 (`readability.js`; from the package's own index.d.ts,
 * with the hooks Cirrus adds). `T` is what the serializer makes of the article and the type of
 * the elements the hooks receive.
 */

/** What Readability's conditional cleaning reads of a block (`_measureBlock`); lengths are of its text trimmed with whitespace runs folded. */
export interface BlockMeasures<E> {
  textLength: number;
  /** Commas in its text (counting may stop at 10: only "fewer than 10" is asked). */
  commas: number;
  /** Its text, when short enough that it may be only ad or loading words; else null. */
  shortText: string | null;
  /** Text of its `ul`/`ol` lists, each counted (nested ones again). */
  listLength: number;
  /** Text of its h1–h6 headings. */
  headingLength: number;
  /** Text of its span, li, td and DIV_TO_P_ELEMS descendants. */
  textishLength: number;
  /** Text of its links, a link to a fragment (`#…`) counted at 0.3. */
  linkLength: number;
  p: number;
  img: number;
  li: number;
  input: number;
  /** Whether it holds a table Readability marked a data table. */
  hasDataTable: boolean;
  /** Its object, embed and iframe descendants. */
  embeds: ArrayLike<E>;
}

/**
 * Named hooks where Cirrus changes Readability. Each is optional; without any, this is
 * Readability 0.6.0 (with the speed changes listed in README.md, which keep its results).
 */
export interface ReadabilityHooks<E> {
  /** A block about to be removed as an unlikely candidate stays when this says so (its children are read on). */
  keepUnlikelyCandidate?(node: E): boolean;
  /** A block the conditional cleaning would drop as "a little linky" stays when this says so. */
  keepLinkyProse?(node: E, linkDensity: number): boolean;
  /** Measures a block for the conditional cleaning; must equal Readability's own reads (`_measureBlock`). */
  measureBlock?(node: E): BlockMeasures<E>;
  /** An element's link density; must equal Readability's `_getLinkDensity`. */
  linkDensity?(node: E): number;
  /** The link densities of an attempt's candidates, measured together (a map holding each). */
  linkDensities?(candidates: E[]): Map<E, number>;
  /** Whether the element's text holds anything but whitespace. */
  hasText?(node: E): boolean;
  /** Receives Readability's copy of the page (the body, prepared, before any attempt); it must not be changed before parse() returns. */
  pageCopy?(body: E): void;
}

export interface ReadabilityOptions<T> {
  debug?: boolean;
  maxElemsToParse?: number;
  nbTopCandidates?: number;
  charThreshold?: number;
  classesToPreserve?: string[];
  keepClasses?: boolean;
  serializer?: (node: never) => T;
  disableJSONLD?: boolean;
  allowedVideoRegex?: RegExp;
  linkDensityModifier?: number;
  hooks?: ReadabilityHooks<T>;
}

export class Readability<T = string> {
  constructor(document: unknown, options?: ReadabilityOptions<T>);

  parse(): null | {
    /** article title */
    title: string | null | undefined;
    /** the processed article content, as the serializer made it */
    content: T | null | undefined;
    /** text content of the article, with all the HTML tags removed */
    textContent: string | null | undefined;
    /** length of an article, in characters */
    length: number | null | undefined;
    /** article description, or short excerpt from the content */
    excerpt: string | null | undefined;
    /** author metadata */
    byline: string | null | undefined;
    /** content direction */
    dir: string | null | undefined;
    /** name of the site */
    siteName: string | null | undefined;
    /** content language */
    lang: string | null | undefined;
    /** published time */
    publishedTime: string | null | undefined;
  };
}

/** Readability's patterns (those the hooks read). */
export const REGEXPS: {
  unlikelyCandidates: RegExp;
  hashUrl: RegExp;
  normalize: RegExp;
  adWords: RegExp;
  loadingWords: RegExp;
};
/** The tags Readability counts as blocks when it turns a DIV into a paragraph. */
export const DIV_TO_P_ELEMS: Set<string>;
