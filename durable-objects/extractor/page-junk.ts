/**
 * What is never content, removed before anything reads the page: junk tags, what the page hides
 * (an accordion's folded panels are opened instead), and beyond articles the page's chrome.
 */
import { removeBoilerplate } from "./boilerplate";
import { removeConsentManagers } from "./consent-managers";
import { isDisclosedPanel } from "./disclosures";
import type { DomDocument, DomElement } from "./dom-types";
import { FOLDED_HIDING, foldedPanels, unfold } from "./folded-content";
import type { PageKind } from "./page-kind";
import { removeJunkTags } from "./page-repair";
import { type BodyWalk, stillUnder, walkPage } from "./page-walk";
import { passOn } from "./passes";
import { removeChrome } from "./region";
import { markSignupBoxes } from "./signup-boxes";

/** Removes what is never content from the page; returns the walk of its body (see `elementsOf`). */
export function removePageJunk(doc: DomDocument, kind: PageKind): BodyWalk {
  // A newsletter's sign-up box is known by its e-mail field, which goes next: the box is marked.
  if (passOn("signup-boxes")) markSignupBoxes(doc);
  // One walk finds what each step reads; a step leaves out what the steps before it removed.
  const page = walkPage(doc, kind !== "article");
  removeJunkTags(doc, page.junkTags);
  const body = doc.body;
  const inBody = (el: DomElement) => body !== null && stillUnder(el, body);
  // The hidden panels of an accordion or a tab set are content, folded until the reader opens them.
  // They are opened here, since Readability skips what is hidden.
  const folded =
    body && passOn("folded-panels")
      ? foldedPanels(body, kind === "article" ? FOLDED_HIDING : "[hidden]", page.panels.filter(inBody))
      : new Set<DomElement>();
  if (kind === "article") for (const el of folded) unfold(el);
  for (const el of page.asidesAndHidden.filter((el) => stillUnder(el, doc)))
    if (!folded.has(el) && !isDisclosedPanel(el)) el.remove();
  // A consent manager is never content, on any page, whatever its share of a short page's text.
  if (body && passOn("consent-managers")) removeConsentManagers(body, page.bodyElements);
  // Beyond articles, page chrome goes before Readability reads the page: it has less to score,
  // and the region is cut from the same cleaned page. An article is read as it is.
  if (body && kind !== "article" && passOn("chrome-first")) removeChrome(body, undefined, page);
  return { elements: page.bodyElements };
}

/** A page cleaned before Readability, with the walk of its body (see `elementsOf`). */
export interface CleanPage {
  document: DomDocument;
  walk: BodyWalk;
}

/**
 * The page as it was before Readability took it apart: its body is replaced by Readability's copy
 * of it (cleaned as the page was, and prepared by Readability: runs of `<br>` made paragraphs).
 * Without a copy (Readability stopped before making one) the body is as it left it.
 */
export function pageAgain(document: DomDocument, copy: DomElement | null): DomDocument {
  // Readability may have left the document without its root element: the copy gets a new one.
  if (!document.documentElement)
    (document as unknown as { append(el: DomElement): void }).append(document.createElement("html"));
  const body = document.body;
  if (copy && body && copy !== body) body.replaceWith(copy);
  return document;
}

/** The page (cleaned as an article was) cleaned again as a page of no stated type: its chrome removed, then its boilerplate as for `kind`. */
export function recleaned(document: DomDocument, kind: PageKind): CleanPage {
  const walk = removePageJunk(document, "other");
  if (document.body) removeBoilerplate(document.body, kind, walk);
  return { document, walk };
}
