/**
 * The choice of the main content: Readability's article (cleaned of junk-labelled blocks, its
 * repeated title, link lists and tail), or the page's main region when it holds clearly more (a
 * run of sections, a thread, a page Readability found little on).
 */
import { cleanArticle, removeArticleJunk } from "./article-cleanup";
import { textLength, textOf } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import type { PageKind } from "./page-kind";
import { type CleanPage, pageAgain, recleaned } from "./page-junk";
import type { BodyWalk } from "./page-walk";
import { passOn } from "./passes";
import { readArticle } from "./read-article";
import { mainRegion } from "./region";
import { missesOpening } from "./thread-opening";
import { articleProbe, runOverArticle, sectionRun, sectionsRegion } from "./service-sections";

/** Readability gives up below this many characters and we fall back to the cleaned body. */
export const MIN_ARTICLE_CHARS = 250;

/** The region replaces Readability's article when it holds this many times its text (a page of sections, cards or posts). */
export const REGION_OVER_ARTICLE = 1.5;
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
  /** The page's `<title>`. */
  title: string;
  /** Whether the page shows a thread of posts (a forum, or dated posts on a page of no stated type). */
  thread?: boolean;
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
  // is kept (folded) before Readability, which may take only some of them.
  const run = kind === "article" && document.body ? sectionRun(document.body, walk) : null;
  const runText = run ? textOf(run.node) : "";
  const { article, pageCopy } = readArticle(document);
  // Readability took the page apart: a step that reads the page again reads its copy of it.
  const again = () => pageAgain(document, pageCopy);
  const content = article?.content ?? null;
  const probe = run && content ? articleProbe(content) : "";
  if (content) {
    removeArticleJunk(content, kind);
    cleanArticle(content, article?.title ?? page.title);
  }
  const articleChars = content ? textLength(content) : 0;
  // Evals measure the choice itself: `choose-article` off takes the region, `choose-region` off keeps the article (when there is one).
  const regionAlways = !passOn("choose-article");
  // Readability found little (or the region is asked for): the region is read from the page, its chrome removed as on a page of no stated type.
  if (!region && (articleChars < MIN_ARTICLE_CHARS || regionAlways))
    region = regionOf(recleaned(again(), kind), kind, false);
  let sections = false;
  if (run && !region && passOn("section-run") && runOverArticle(run, runText, probe, articleChars)) {
    const body = again().body;
    region = body ? sectionsRegion(body, articleChars) : null;
    sections = region !== null;
  }
  // On a thread, an article that starts after the region's opening post read the replies alone.
  const opening =
    (kind === "forum" || page.thread === true) &&
    region !== null &&
    content !== null &&
    region.chars > articleChars &&
    passOn("thread-opening") &&
    missesOpening(region.node, content);
  const wins = sections || opening || (region !== null && regionWins(region.chars, articleChars, kind));
  const fromRegion =
    region !== null && (regionAlways || (passOn("choose-region") ? wins : articleChars === 0));
  return { chosen: fromRegion ? region?.node : article?.content, fromRegion, articleTitle: article?.title };
}

/** Whether the page's region (`chars` long) holds clearly more than Readability's article (`articleChars` long). */
function regionWins(chars: number, articleChars: number, kind: PageKind): boolean {
  if (articleChars < MIN_ARTICLE_CHARS) return true;
  return chars > articleChars * (kind === "article" ? REGION_OVER_PARTIAL_ARTICLE : REGION_OVER_ARTICLE);
}
