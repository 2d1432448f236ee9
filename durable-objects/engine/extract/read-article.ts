/**
 * Readability's reading of the page, with the hooks that keep what its scoring would wrongly drop,
 * and the sections of the page it left before the block it took.
 */
import { passOn } from "./passes";
import { Readability } from "@mozilla/readability";
import type { DomDocument, DomElement } from "./dom-types";
import { leadBeside } from "./lead-header";
import {
  leftEarlierSections,
  openingSections,
  rememberSiblingPass,
  rememberTopParent,
} from "./opening-sections";
import type { PageKind } from "./page-kind";
import { stillUnder } from "./page-walk";
import { speedUpReadability } from "./readability-speed";
import {
  keepHeaderStyledBlocks,
  keepHeadersHoldingProse,
  keepMisleadinglyLabelledBlocks,
} from "./readability-weights";

/** Readability's article as `readArticle` returns it. */
export type ReadArticle = NonNullable<ReturnType<typeof readArticle>>;

/** Readability's article, or null when it finds none or trips over the document. */
export function readArticle(document: DomDocument, kind: PageKind, isJunk: (el: DomElement) => boolean) {
  try {
    const reader = new Readability<DomElement>(document as never, {
      disableJSONLD: true,
      keepClasses: true,
      serializer: (n) => n as unknown as DomElement,
    });
    speedUpReadability(reader);
    // Blocks that Readability reads as negative only by words inside other words stay (a product's
    // description in an `overflow-hidden` accordion, an article's chart in a `media` block).
    if (passOn("misleading-weights")) keepMisleadinglyLabelledBlocks(reader, isJunk);
    // Nor is a block whose label styles its own header (`pane-header-alignment-left`) a page header.
    if (passOn("header-styled-blocks")) keepHeaderStyledBlocks(reader);
    // Nor is a block labelled a header that holds paragraphs of prose (a story's lead; beyond
    // stories, only the one holding the page's title).
    const keptHeaders = passOn("headers-holding-prose")
      ? keepHeadersHoldingProse(reader, kind !== "article")
      : new Set<DomElement>();
    const topParent = rememberTopParent(reader);
    const siblingPass = rememberSiblingPass(reader);
    const article = reader.parse();
    return article ? { ...article, topParent: topParent(), siblingPass: siblingPass(), keptHeaders } : null;
  } catch {
    return null;
  }
}

/** What Readability left of the page's body (its document may have lost its root). */
export const leftInPage = (document: DomDocument) => (document.documentElement ? document.body : null);

/**
 * On a page of no stated type built of like sections, the sections of prose printed before the one
 * Readability took are the page's opening (an article's standfirst is not: truths differ), and so
 * are the titled or like sections before its top candidate that its sibling pass left; a title's
 * lead in a header block beside the body opens it. They are prepended to the article's content.
 */
export function withLeftSections(
  article: ReadArticle,
  document: DomDocument,
  isJunk: (el: DomElement) => boolean,
) {
  const leftBody = article.topParent ? leftInPage(document) : null;
  if (!article.content || !article.topParent || !leftBody || !stillUnder(article.topParent, leftBody)) return;
  const opening = openingSections(article.topParent, leftBody, article.content, isJunk);
  article.content.prepend(...opening);
  // The opening goes in first so that the left sections are told apart from what the content holds;
  // prepending both again puts them in page order.
  const left = leftEarlierSections(article.siblingPass, article.topParent, article.content, isJunk);
  if (left.length) article.content.prepend(...opening, ...left);
  const lead = leadBeside(article.topParent, article.content, article.keptHeaders);
  if (lead) article.content.prepend(lead);
}
