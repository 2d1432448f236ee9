/**
 * From HTML text to a parsed page: never-content blocks (scripts, styles, navigation, form
 * controls) and attributes no step reads are cut from the text before parsing, which is much
 * cheaper than parsing them; the parsed page is then repaired as a browser would show it.
 */
import { parseHTML } from "linkedom";
import { markControlledPanels } from "./controlled-panels";
import { HEADING_LOOKBACK_CHARS, keptButton } from "./disclosures";
import type { DomDocument } from "./dom-types";
import { rememberMarkup } from "./markup-hints";
import { flattenDeep, placeStreamedSegments, repairBody, streamPlaceholder } from "./page-repair";
import { EMAIL_FIELD, OTHER_FIELD } from "./signup-boxes";
import { type BlockEnd, elementEnd, innerOf, replaceBlocks } from "./raw-blocks";
import { lowerMicrodataNames } from "./structured-posts";

/**
 * Blocks dropped from the HTML text before parsing, as a browser would end them (much cheaper than parsing them):
 * an element of these names to its first closing tag (a video or audio element shows its text only where it cannot
 * play), a comment, a `<link>` or `<input>` tag; as `<(script|…)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<(?:link|input)\b[^>]*>` finds them.
 */
export const RAW_JUNK =
  /<(?:(script|style|svg|noscript|template|nav|aside|footer|select|button|iframe|canvas|object|video|audio)\b|!--|(?:link|input)\b)/gi;
const COMMENT_END = /-->/g;
export const rawJunkEnd: BlockEnd = (m, find) =>
  m[0] === "<!--" ? (find(COMMENT_END, m.index + 4)?.end ?? -1) : elementEnd(m, find, m[1]);

/** A script, style, noscript or comment nothing closes holds the rest of the page, as a browser reads it (unshown). */
const rawJunkOrRest: BlockEnd = (m, find) => {
  const end = rawJunkEnd(m, find);
  return end < 0 && /^<(!--|script|style|noscript)/i.test(m[0]) ? m.input.length : end;
};

/** A `<noscript>` block its closing tag ends (one nothing closes runs to the end of the page). */
const CLOSED_NOSCRIPT = /^<noscript\b[\s\S]*<\/noscript\s*>$/i;
/** An `<input>` tag of an e-mail field. */
const EMAIL_INPUT = /^<input\b[^>]*\stype\s*=\s*["']?email\b/i;

/** An `<input>` tag of a field a reader fills in with words (not a button, box or hidden value). */
const FILLED_INPUT =
  /^<input\b(?![^>]*\stype\s*=\s*["']?(?:hidden|submit|button|checkbox|radio|image|reset|file|range|color)\b)/i;

/** Attributes no step reads (script state, responsive image lists), cut from tags before parsing to parse less. */
const HEAVY_ATTR = /\s(?:data-[\w.:-]+|srcset|sizes)\s*=\s*(?:"[^"]*"|'[^']*')/gi;
const HEAVY_NAME = /\s(?:data-[\w.:-]+|srcset|sizes)\s*=/gi;
/** A tag holding them, as `<[a-z][\w-]*(?:\s[^>]*?)?\s(?:data-[\w.:-]+|srcset|sizes)\s*=[^>]*>` finds it. */
const heavyTagEnd: BlockEnd = (m, find) =>
  /\s/.test(m.input.charAt(m.index + m[0].length)) ? elementEnd(m, find, undefined, HEAVY_NAME) : -1;
/** `html` with the attributes no step reads cut from its tags. */
export const dropHeavyAttrs = (html: string) =>
  replaceBlocks(html, /<[a-z][\w-]*/gi, heavyTagEnd, (tag) => tag.replace(HEAVY_ATTR, ""));

/** A `<noscript>` longer than this is the page's content for crawlers (forums render so): it is kept. */
export const CONTENT_NOSCRIPT_CHARS = 2000;

const stripInner = (markup: string) => replaceBlocks(markup, RAW_JUNK, rawJunkEnd, () => "");

/** Where a long `<noscript>`'s content waits in the stripped text until it is known not to repeat the page. */
const NOSCRIPT_SLOT = /\uE000(\d+)\uE000/g;
/** A run of text this long between two tags is a sentence of the page's prose (a test of repetition). */
const PROSE_RUN = /(?<=>)[^<>]{60,}(?=<)/g;
/** How many of a `<noscript>`'s first prose runs are looked up in the rest of the page. */
const NOSCRIPT_SAMPLES = 8;

/**
 * Whether a `<noscript>`'s content repeats text the page shows anyway (a script-rendered article
 * with a crawler copy of itself): each of its first prose runs is in the stripped page.
 */
function repeatsPage(content: string, page: string): boolean {
  const runs = (content.match(PROSE_RUN) ?? []).slice(0, NOSCRIPT_SAMPLES);
  const found = runs.filter((run) => page.includes(run.trim().slice(0, 50))).length;
  return runs.length > 0 && found === runs.length;
}

/** The HTML with scripts, styles and other never-content blocks cut out of the text. */
function stripRaw(html: string): string {
  // Long <noscript> contents wait in slots: each is kept unless the page shows it anyway.
  const noscripts: string[] = [];
  // A stray `<![CDATA[` in HTML is a bogus comment to a browser; linkedom would read CDATA to the end.
  const text = html.replace(/<!\[CDATA\[|\]\]>/g, "");
  const cut = replaceBlocks(text, RAW_JUNK, rawJunkOrRest, (block, { 1: tag, index: offset }) => {
    if (tag?.toLowerCase() === "template" || block.startsWith("<!--")) return streamPlaceholder(block);
    // The fields a reader fills in are kept, bare, to tell a sign-up box (signup-boxes.ts).
    if (!tag && /^<input/i.test(block))
      return EMAIL_INPUT.test(block) ? EMAIL_FIELD : FILLED_INPUT.test(block) ? OTHER_FIELD : "";
    if (tag?.toLowerCase() === "button") {
      const before = text.slice(Math.max(0, offset - HEADING_LOOKBACK_CHARS), offset);
      return keptButton(block, stripInner, before);
    }
    if (block.length < CONTENT_NOSCRIPT_CHARS || !CLOSED_NOSCRIPT.test(block)) return "";
    noscripts.push(dropHeavyAttrs(stripInner(innerOf(block))));
    return `\uE000${noscripts.length - 1}\uE000`;
  });
  const stripped = dropHeavyAttrs(cut);
  if (!noscripts.length) return stripped;
  const shown = stripped.replace(NOSCRIPT_SLOT, "");
  return stripped.replace(NOSCRIPT_SLOT, (_, i: string) =>
    repeatsPage(noscripts[Number(i)], shown) ? "" : noscripts[Number(i)],
  );
}

/** What streamed rendering leaves in the stripped HTML: placeholder templates, or segments `<div hidden id="S:n">`. */
const STREAMED_MARKS = /<template[\s>/]|\sid\s*=\s*["']?S:/i;

/** A parsed page, cleaned of what is never content. */
export function parsePage(html: string, url?: string): DomDocument {
  let clean = lowerMicrodataNames(stripRaw(html));
  const whole = clean.length <= MAX_MARKUP_CHARS;
  if (!whole)
    clean = clean.slice(0, Math.max(0, clean.lastIndexOf("<", MAX_MARKUP_CHARS)) || MAX_MARKUP_CHARS);
  const document = parseHTML(clean).document as unknown as DomDocument;
  if (!whole) cutPages.add(document);
  repairBody(document);
  flattenDeep(document);
  // The panels an accordion's buttons open are named only by the buttons, cut from `clean`.
  const marked = markControlledPanels(document, html);
  // Steps skip walks for attributes the text never names: the roles just given are named too.
  rememberMarkup(document, marked ? `${clean} role="region"` : clean);
  // Two queries over the whole page, run only when the text shows streamed rendering's marks.
  if (STREAMED_MARKS.test(clean)) placeStreamedSegments(document);
  if (url) setBase(document, url, BASE_TAG.test(clean));
  return document;
}

/**
 * The markup read of a page, scripts and styles cut (benchmark pages hold up to 0.74 MB). The tree
 * and the steps take about fifty times it in memory: a one-page manual of 2.8 MB took 136 MB, past
 * the isolate's 128 MB. A longer page is read up to here and said to be cut.
 */
export const MAX_MARKUP_CHARS = 1_000_000;
const cutPages = new WeakSet<DomDocument>();
/** Whether the page was longer than MAX_MARKUP_CHARS and only its start was read. */
export const wasCut = (document: DomDocument) => cutPages.has(document);

/** A `<base>` tag in the HTML text (the query for one runs only then). */
const BASE_TAG = /<base/i;

/** Gives the page a base URL, so relative links resolve against the page's address. */
function setBase(document: DomDocument, url: string, mayHaveBase: boolean): void {
  if (mayHaveBase && document.querySelector("base[href]")) return;
  const head = document.head ?? document.documentElement;
  const base = document.createElement("base");
  base.setAttribute("href", url);
  head?.prepend(base);
}
