/**
 * What is never content, removed before anything reads the page: junk tags, what the page hides
 * (an accordion's folded panels are opened instead), and beyond articles the page's chrome.
 */
import { removeBoilerplate } from "./boilerplate";
import { isDisclosedPanel } from "./disclosures";
import { clearMisleadingLabels, isCodeTab } from "./doc-pages";
import type { DomDocument, DomElement } from "./dom-types";
import { FOLDED_HIDING, foldedPanels, unfold } from "./folded-content";
import type { PageKind } from "./page-kind";
import { removeJunkTags } from "./page-repair";
import { type BodyWalk, stillUnder, walkPage } from "./page-walk";
import { parsePage } from "./parse-page";
import { passOn } from "./passes";
import { removeChrome } from "./region";

/** Removes what is never content from the page; returns the walk of its body (see `elementsOf`). */
export function removePageJunk(doc: DomDocument, kind: PageKind): BodyWalk {
  // One walk finds what each step reads; a step leaves out what the steps before it removed.
  const page = walkPage(doc, kind !== "article");
  removeJunkTags(doc, page.junkTags);
  const body = doc.body;
  const inBody = (el: DomElement) => body !== null && stillUnder(el, body);
  if (body && passOn("misleading-labels")) clearMisleadingLabels(body, page.labelledBlocks.filter(inBody));
  // The hidden panels of an accordion or a tab set are content, folded until the reader opens them.
  // They are opened here, since Readability skips what is hidden.
  const folded =
    body && passOn("folded-panels")
      ? foldedPanels(body, kind === "article" ? FOLDED_HIDING : "[hidden]", page.panels.filter(inBody))
      : new Set<DomElement>();
  for (const el of folded) if (kind === "article" || isCodeTab(el)) unfold(el);
  for (const el of page.asidesAndHidden.filter((el) => stillUnder(el, doc)))
    if (!folded.has(el) && !isDisclosedPanel(el)) el.remove();
  // Beyond articles, page chrome goes before Readability reads the page: it has less to score,
  // and the region is cut from the same cleaned page. An article is read as it is.
  if (body && kind !== "article" && passOn("chrome-first"))
    removeChrome(body, undefined, page, kind === "forum");
  return { elements: page.bodyElements };
}

/** A page cleaned before Readability, with the walk of its body (see `elementsOf`). */
export interface CleanPage {
  document: DomDocument;
  walk: BodyWalk;
}

/** A fresh parse of the page (Readability took the first apart), its junk removed as for `junkKind` and its boilerplate as for `kind`. */
export function cleanParse(
  html: string,
  url: string | undefined,
  junkKind: PageKind,
  kind: PageKind,
): CleanPage {
  const again = junkFreeParse(html, url, junkKind);
  if (again.document.body) removeBoilerplate(again.document.body, kind, again.walk);
  return again;
}

/** A fresh parse of the page, its junk removed as for `junkKind`. */
function junkFreeParse(html: string, url: string | undefined, junkKind: PageKind = "other"): CleanPage {
  const document = parsePage(html, url);
  const walk = removePageJunk(document, junkKind);
  return { document, walk };
}
