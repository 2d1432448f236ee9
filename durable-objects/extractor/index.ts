/**
 * The extractor: a web page's main content as Markdown, with its title and metadata. The pipeline
 * and its rules are described in README.md; the evals are in eval/, the tests in test/unit/extractor/.
 * Its users import from here only: web_fetch calls {@link extractMainContent}; document converters
 * call {@link htmlToMarkdown}.
 */
import { parseHTML } from "linkedom";
import type { DomNode } from "./dom-types";
import { toMarkdown } from "./markdown";

export type { DomDocument, DomElement, DomNode } from "./dom-types";
export { type Extracted, extractMainContent } from "./extract";
export type { PageMetadata } from "./metadata";

/** A fragment of HTML (a converted document's body, not a web page to extract from) as Markdown. */
export function htmlToMarkdown(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return toMarkdown(document.body as unknown as DomNode, true);
}
