/**
 * Headings and code samples that Readability misreads by their labels. Documentation generators
 * give each section the slug of its heading as an id (`<section id="respond-to-review-comments">`),
 * and utility-class frameworks style headings and code boxes with tokens such as `scroll-mt-20`,
 * `overflow-x-hidden` or `font-extrabold`. Readability reads ids and classes as words: "comment",
 * "header", "hidden", "scroll" or "extra" make it drop the block. Such an id is an anchor and such
 * a token a layout detail, so they are taken off headings, sections and code boxes before it reads.
 * Page builders call a card's or a section's heading its header (`<h4 class="et_pb_module_header">`):
 * a heading is no page header, so that word is taken off headings too.
 */
import type { DomElement } from "./dom-types";
import { isHeadingSlug } from "./junk-labels";
import { MISLEADING_ID_WORD } from "./vocabulary/class-words";

/** Layout utility tokens holding such words, with any variant prefixes (`md:`, `hover:`). */
const UTILITY_TOKEN =
  /(?:^|\s)(?:[\w-]+:)*(?:overflow(?:-[xy])?-(?:hidden|scroll)|scroll(?:bar)?-[^\s]+|font-extra(?:bold|light))(?=\s|$)/gi;
/** A code box's wrappers are climbed while they hold at most this many elements (the code, a copy button, a caption)... */
export const MAX_WRAPPER_CHILDREN = 3;
/** ... and at most this many levels up. */
export const MAX_WRAPPER_DEPTH = 4;

/** Class tokens naming a heading as a header (`et_pb_module_header`, `section-header`, `card__header`). */
const HEADER_TOKEN = /(?:^|\s)[^\s]*header[^\s]*(?=\s|$)/gi;
const HEADING_TAGS = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);

function clearTokens(el: DomElement): void {
  const cls = el.getAttribute("class");
  if (!cls) return;
  let cleared = cls;
  UTILITY_TOKEN.lastIndex = 0;
  if (UTILITY_TOKEN.test(cleared)) cleared = cleared.replace(UTILITY_TOKEN, "");
  // A heading called a header is one (a card's or a section's title), not the page's header.
  if (HEADING_TAGS.has(el.tagName) && /header/i.test(cleared)) cleared = cleared.replace(HEADER_TOKEN, "");
  if (cleared !== cls) el.setAttribute("class", cleared);
}

/** Takes misleading ids (heading slugs), utility tokens and a heading's "header" tokens off the headings and code boxes (`h1`–`h6`, `pre`) under root, and their sections and wrappers. */
export function clearMisleadingLabels(root: DomElement, blocks: DomElement[]): void {
  for (const el of blocks) {
    clearTokens(el);
    if (el.tagName === "PRE") {
      let n = el.parentElement;
      for (let depth = 0; n && n !== root && depth < MAX_WRAPPER_DEPTH; depth++, n = n.parentElement) {
        if (n.children.length > MAX_WRAPPER_CHILDREN) break;
        clearTokens(n);
      }
      continue;
    }
    // The heading's own id, and the id of the section it opens.
    for (const target of [el, el.parentElement]) {
      const id = target?.getAttribute("id") ?? "";
      if (target && MISLEADING_ID_WORD.test(id) && isHeadingSlug(target, id)) target.removeAttribute("id");
    }
  }
}

/**
 * Whether a folded panel is a tab of a code sample set (install on Windows / macOS / Linux, one
 * language per tab): a tab panel holding a code block. Every tab is content, so it is opened for
 * Readability on any page (other folded panels only on articles: the region keeps them elsewhere).
 */
export const isCodeTab = (el: DomElement) =>
  el.getAttribute("role") === "tabpanel" && el.querySelector("pre") !== null;
