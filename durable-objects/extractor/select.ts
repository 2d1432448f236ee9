/**
 * The choice of the main content: Readability's article (cleaned of junk-labelled blocks, its
 * repeated title, link lists and tail), or the page's main region when it holds clearly more (a
 * run of sections, a thread, a page Readability found little on).
 */
import { cleanArticle, removeArticleJunk } from "./article-cleanup";
import { textBesideComments } from "./article-sections";
import { textLength } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import type { PageKind } from "./page-kind";
import { type CleanPage, pageAgain, recleaned } from "./page-junk";
import type { BodyWalk } from "./page-walk";
import { passOn } from "./passes";
import type { Thread } from "./post-lists";
import { readArticle } from "./read-article";
import { mainRegion } from "./region";
import { articleProbe, runOverArticle, runTextOf, sectionRun, sectionsRegion } from "./service-sections";
import { isTableArticle, missesThread } from "./thread-choice";

/** Readability gives up below this many characters and we fall back to the cleaned body. */
export const MIN_ARTICLE_CHARS = 250;

/** The region replaces Readability's article when it holds this many times its text (a page of sections, cards or posts). */
export const REGION_OVER_ARTICLE = 1.5;
/** When Readability's article misses the thread (thread-choice.ts), the region wins when it holds this many times its text. */
export const THREAD_OVER_ARTICLE = 1;
/** On a page that states it is an article, the page's main region replaces Readability's article when it holds this many times its text. */
export const REGION_OVER_PARTIAL_ARTICLE = 4;

/** The main region of a cleaned page, copied when the page goes on to Readability (`copy`), which takes it apart. */
const regionOf = (page: CleanPage, kind: PageKind, copy: boolean) =>
  page.document.body ? mainRegion(page.document.body, kind === "product", copy, page.walk) : null;

/** A page parsed and cleaned before Readability reads it. */
export interface PageToRead {
  document: DomDocument;
  walk: BodyWalk;
  kind: PageKind;
  /** The page's thread of posts, when its boilerplate pass found one. */
  thread: Thread | null;
  /** The page's `<title>`. */
  title: string;
}

/** The main content chosen, and the title of Readability's article (the page's heading when it has one). */
export interface Selected {
  chosen: DomElement | null | undefined;
  /** Whether the chosen content is the page's region rather than Readability's article. */
  fromRegion: boolean;
  articleTitle: string | null | undefined;
}

/** Reads the page with Readability and chooses between its article and the page's main region. */
export function selectContent(page: PageToRead): Selected {
  const { document, walk, kind } = page;
  let region = kind === "article" ? null : regionOf({ document, walk }, kind, true);
  // Page builders print every page as an article too: the text of a run of like headed sections
  // is kept before Readability, which may take only some of them.
  const run = kind === "article" && document.body ? sectionRun(document.body, walk) : null;
  const runText = run ? runTextOf(run) : "";
  const { article, pageCopy } = readArticle(document, kind);
  // Readability took the page apart: a step that reads the page again reads its copy of it.
  const again = () => pageAgain(document, pageCopy);
  const content = article?.content ?? null;
  const probe = run && content ? articleProbe(content) : "";
  if (content) {
    removeArticleJunk(content, kind);
    cleanArticle(content, article?.title ?? page.title);
  }
  const articleChars = content ? textLength(content) : 0;
  if (!region && articleChars < MIN_ARTICLE_CHARS) {
    // Readability found little: the region is read from the page, its chrome removed as on a page of no stated type.
    region = regionOf(recleaned(again(), kind), kind, false);
  }
  let sections = false;
  if (run && !region && passOn("section-run") && runOverArticle(run, runText, probe, articleChars)) {
    const body = again().body;
    region = body ? sectionsRegion(body, articleChars) : null;
    sections = region !== null;
  }
  const fromRegion = sections || (region !== null && regionWins(region, content, articleChars, page));
  return { chosen: fromRegion ? region?.node : article?.content, fromRegion, articleTitle: article?.title };
}

/** Whether the page's region holds clearly more than Readability's article (`articleChars` long). */
function regionWins(
  region: { node: DomElement; chars: number },
  article: DomElement | null,
  articleChars: number,
  { kind, thread }: PageToRead,
): boolean {
  if (articleChars < MIN_ARTICLE_CHARS) return true;
  if (kind === "article")
    return textBesideComments(region.node, region.chars) > articleChars * REGION_OVER_PARTIAL_ARTICLE;
  const threaded = thread && article ? missesThread(thread, article, region.node) : false;
  // A thread under a list that Readability read as a table or ordered list is readers' comments: the region is weighed without them.
  const commented = threaded && kind === "other" && article !== null && isTableArticle(article, articleChars);
  const missed = threaded && !commented;
  const chars = commented ? textBesideComments(region.node, region.chars) : region.chars;
  return chars > articleChars * (missed ? THREAD_OVER_ARTICLE : REGION_OVER_ARTICLE);
}
