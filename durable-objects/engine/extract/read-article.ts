/** Readability's reading of the page, with the hook that keeps what its scoring would wrongly drop. */
import { passOn } from "./passes";
import { Readability } from "@mozilla/readability";
import type { DomDocument, DomElement } from "./dom-types";
import type { PageKind } from "./page-kind";
import { speedUpReadability } from "./readability-speed";
import { keepHeadersHoldingProse } from "./readability-weights";

/** Readability's article, or null when it finds none or trips over the document. */
export function readArticle(document: DomDocument, kind: PageKind) {
  try {
    const reader = new Readability<DomElement>(document as never, {
      disableJSONLD: true,
      keepClasses: true,
      serializer: (n) => n as unknown as DomElement,
    });
    speedUpReadability(reader);
    // A block labelled a header that holds paragraphs of prose is no page header (a story's lead;
    // beyond stories, only the one holding the page's title).
    if (passOn("headers-holding-prose")) keepHeadersHoldingProse(reader, kind !== "article");
    return reader.parse();
  } catch {
    return null;
  }
}
