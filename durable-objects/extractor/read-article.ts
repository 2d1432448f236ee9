/** Readability's reading of the page: the vendored Readability.js with our hooks. */
import type { DomDocument, DomElement } from "./dom-types";
import { passOn } from "./passes";
import { MEASURING_HOOKS } from "./readability-speed";
import { Readability } from "./vendor/readability/readability.js";

/**
 * Readability's article (its content is the article's element), or null when it finds none or
 * trips over the document; and its copy of the page as it was before it took the page apart
 * (`pageCopy`, null when it never made one), for the steps that read the page again.
 */
export function readArticle(document: DomDocument) {
  let pageCopy: DomElement | null = null;
  const article = parsed(document, (copy) => {
    pageCopy = copy;
  });
  return { article, pageCopy: pageCopy as DomElement | null };
}

function parsed(document: DomDocument, keepCopy: (copy: DomElement) => void) {
  try {
    const reader = new Readability<DomElement>(document, {
      disableJSONLD: true,
      keepClasses: true,
      serializer: (n) => n as unknown as DomElement,
      hooks: {
        ...MEASURING_HOOKS,
        pageCopy: keepCopy,
        ...(passOn("headings-by-tag") ? { keepUnlikelyCandidate: isHeading } : {}),
      },
    });
    return reader.parse();
  } catch {
    return null;
  }
}

/** A heading is text by its tag, though its class names it a header (`code-header`, `header-anchor-post`),
 * a word that makes it one of Readability's unlikely candidates (API signatures, newsletters' headings). */
const isHeading = (node: DomElement) => /^H[1-6]$/.test(node.tagName);
