/** Readability's reading of the page: the vendored Readability.js with our hooks. */
import type { DomDocument, DomElement } from "./dom-types";
import { isLinkedProse } from "./linked-prose";
import type { PageKind } from "./page-kind";
import { passOn } from "./passes";
import { MEASURING_HOOKS } from "./readability-speed";
import { isHeaderHoldingProse } from "./readability-weights";
import { Readability } from "./vendor/readability/readability.js";

/**
 * Readability's article (its content is the article's element), or null when it finds none or
 * trips over the document; and its copy of the page as it was before it took the page apart
 * (`pageCopy`, null when it never made one), for the steps that read the page again.
 */
export function readArticle(document: DomDocument, kind: PageKind) {
  let pageCopy: DomElement | null = null;
  const article = parsed(document, kind, (copy) => {
    pageCopy = copy;
  });
  return { article, pageCopy: pageCopy as DomElement | null };
}

function parsed(document: DomDocument, kind: PageKind, keepCopy: (copy: DomElement) => void) {
  try {
    const reader = new Readability<DomElement>(document, {
      disableJSONLD: true,
      keepClasses: true,
      serializer: (n) => n as unknown as DomElement,
      hooks: {
        ...MEASURING_HOOKS,
        // A block labelled a header that holds paragraphs of prose is no page header (a story's
        // lead; beyond stories, only the one holding the page's title).
        keepUnlikelyCandidate: passOn("headers-holding-prose")
          ? (node) => isHeaderHoldingProse(node, kind !== "article")
          : undefined,
        // A block dropped only for being "a little linky" stays when it holds a paragraph of prose.
        keepLinkyProse: isLinkedProse,
        pageCopy: keepCopy,
      },
    });
    return reader.parse();
  } catch {
    return null;
  }
}
