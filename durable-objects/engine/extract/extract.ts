/**
 * Main-content extraction: the page is cleaned of boilerplate (navigation, sidebars, footers,
 * cookie banners, ads), Readability picks the article, and the result becomes Markdown.
 */
import { cleanArticle, isInside } from "./article-cleanup";
import { ARTICLE_JUNK_ATTR } from "./vocabulary/class-words";
import { removeFigures, textBesideComments } from "./article-sections";
import { removeBoilerplate } from "./boilerplate";
import { removeCardControls } from "./card-controls";
import { inCode } from "./code-blocks";
import { cleanProductCards } from "./collection-page";
import { isDisclosedPanel } from "./disclosures";
import { clearMisleadingLabels, isCodeTab } from "./doc-pages";
import { lazyTextLength, textLength } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import { FOLDED_HIDING, foldedPanels, unfold } from "./folded-content";
import { separateGluedItems } from "./glued-items";
import { isShortControl, junkLabel, labelNames } from "./junk-labels";
import { toMarkdown } from "./markdown";
import { cleanMarkdown } from "./markdown-passes";
import { type PageMetadata, readJsonLd, readMetadata } from "./metadata";
import { type PageKind, pageKind } from "./page-kind";
import { removeJunkTags } from "./page-repair";
import { removeRepeatedLinkLabels } from "./repeated-links";
import { parsePage } from "./parse-page";
import { type BodyWalk, stillUnder, walkPage } from "./page-walk";
import { removeProductSections } from "./product-page";
import { mainRegion, removeChrome } from "./region";
import { articleProbe, runOverArticle, runTextOf, sectionRun, sectionsRegion } from "./service-sections";
import { isTableArticle, missesThread } from "./thread-choice";
import { removeTwinBlocks } from "./twin-blocks";
import { removeBreakpointTwins, screenCopies } from "./breakpoint-twins";
import { readArticle } from "./read-article";
import { passOn } from "./passes";
import { FORUM_POST_ATTR, JUNK_ATTR } from "./vocabulary/class-words";

/** Readability gives up below this many characters and we fall back to the cleaned body. */
export const MIN_ARTICLE_CHARS = 250;

/** A junk-labelled block inside the article is removed when it holds less than this share of its text. */
export const JUNK_SHARE = 0.3;

/** The main content of a page. */
export interface Extracted {
  title: string;
  /** The main content; "" when the page's HTML shows none (a page drawn by script, a blocked page). */
  markdown: string;
  metadata: PageMetadata;
  /** The page's own description (meta, OpenGraph or Twitter), longest first; "" when it states none. */
  description: string;
}

/** Removes what is never content from the page; returns the walk of its body (see `elementsOf`). */
function removePageJunk(doc: DomDocument, kind: PageKind): BodyWalk {
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

function removeArticleJunk(root: DomElement, kind: PageKind): void {
  if (passOn("article-junk")) removeJunkLabelled(root, kind);
  removeFigures(root, kind === "forum");
}

/** Removes the junk-labelled blocks of an article holding under JUNK_SHARE of its text. */
function removeJunkLabelled(root: DomElement, kind: PageKind): void {
  const total = lazyTextLength(root, (el) => (el.textContent ?? "").length);
  for (const el of [...root.querySelectorAll("[class], [id]")]) {
    if (!isInside(el, root)) continue;
    const label = junkLabel(el);
    const junk = labelNames(JUNK_ATTR, label) || (kind === "article" && ARTICLE_JUNK_ATTR.test(label));
    if (!(junk || isShortControl(el, label)) || inCode(el)) continue;
    if (kind === "forum" && FORUM_POST_ATTR.test(label)) continue;
    if ((el.textContent ?? "").length < total() * JUNK_SHARE) el.remove();
  }
}

/** The region replaces Readability's article when it holds this many times its text (a page of sections, cards or posts). */
export const REGION_OVER_ARTICLE = 1.5;
/** When Readability's article misses the thread (thread-choice.ts), the region wins when it holds this many times its text. */
export const THREAD_OVER_ARTICLE = 1;
/** On a page that states it is an article, the page's main region replaces Readability's article when it holds this many times its text. */
export const REGION_OVER_PARTIAL_ARTICLE = 4;

/** The main region of a cleaned page, copied when the page goes on to Readability (`copy`), which takes it apart. */
const regionOf = (page: CleanPage, kind: PageKind, copy: boolean) =>
  page.document.body ? mainRegion(page.document.body, kind === "product", copy, page.walk) : null;

/** Extracts the main content of an HTML page as Markdown. */
export function extractMainContent(html: string, url?: string): Extracted {
  const ld = readJsonLd(html);
  const document = parsePage(html, url);
  const metadata = readMetadata(document, ld);
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  // A page that says it is an article is read by Readability alone, on the page as it is.
  const kind = pageKind(document, ld);
  const description = describedAs(document);
  const walk = removePageJunk(document, kind);
  const thread = document.body ? removeBoilerplate(document.body, kind, walk) : null;
  let region = kind === "article" ? null : regionOf({ document, walk }, kind, true);
  // Page builders print every page as an article too: the text of a run of like headed sections
  // is kept before Readability, which may take only some of them.
  const run = kind === "article" && document.body ? sectionRun(document.body, walk) : null;
  const runText = run ? runTextOf(run) : "";
  const article = readArticle(document, kind);
  const probe = run && article?.content ? articleProbe(article.content) : "";
  if (article?.content) {
    removeArticleJunk(article.content, kind);
    cleanArticle(article.content, article.title ?? title);
  }
  const articleChars = article?.content ? textLength(article.content) : 0;
  if (!region && articleChars < MIN_ARTICLE_CHARS) {
    // Readability took the page apart and found little: read the region from a fresh parse.
    region = regionOf(cleanParse(html, url, "other", kind), kind, false);
  }
  let sections = false;
  if (run && !region && passOn("section-run") && runOverArticle(run, runText, probe, articleChars)) {
    region = sectionsOf(html, url, kind, articleChars);
    sections = region !== null;
  }
  const threaded =
    thread && region && article?.content ? missesThread(thread, article.content, region.node) : false;
  // A thread under a list that Readability read as a table or ordered list is readers' comments: the region is weighed without them.
  const commented =
    threaded && kind === "other" && article?.content != null && isTableArticle(article.content, articleChars);
  const missed = threaded && !commented;
  const useRegion =
    sections ||
    (region &&
      (articleChars < MIN_ARTICLE_CHARS ||
        (kind === "article"
          ? textBesideComments(region.node, region.chars) > articleChars * REGION_OVER_PARTIAL_ARTICLE
          : (commented ? textBesideComments(region.node, region.chars) : region.chars) >
            articleChars * (missed ? THREAD_OVER_ARTICLE : REGION_OVER_ARTICLE))));
  const chosen = useRegion ? region?.node : article?.content;
  if (chosen && url && useRegion) absolutizeLinks(chosen, url);
  // Beyond shops, the links every card of a listing repeats ("More like this") are its buttons.
  if (chosen && kind !== "product" && passOn("card-controls")) removeCardControls(chosen);
  if (chosen && kind === "product") {
    if (passOn("product-sections")) removeProductSections(chosen);
    // A grid of priced cards repeats its buttons in every card (one query when the content shows no prices).
  } else if (chosen && passOn("product-cards")) cleanProductCards(chosen);
  // Beyond articles and products, a link label repeated under many items ("See details") is a control.
  if (chosen && (kind === "other" || kind === "forum") && passOn("repeated-link-labels"))
    removeRepeatedLinkLabels(chosen);
  // A block printed twice side by side (one copy per screen size, a carousel's loop) is read once.
  const copies = screenCopies();
  if (chosen && passOn("twin-blocks")) removeTwinBlocks(chosen, copies.measured);
  // The same block printed per screen size in other markup (a little reworded, wrapped apart) is
  // read once: the desktop's copy, or the fuller one.
  if (chosen && passOn("breakpoint-twins")) removeBreakpointTwins(chosen, copies);
  // Inline items printed with no space between them (a film's year, length, rating) are words apart.
  if (chosen && passOn("glued-items")) separateGluedItems(chosen);
  let markdown = chosen ? toMarkdown(chosen, true) : "";
  markdown = cleanMarkdown(markdown, kind, ld, kind === "forum" || !!thread);
  const heading = article?.title?.trim() || title;
  if (heading && !metadata.title) metadata.title = heading;
  return { title: heading, markdown, metadata, description };
}

/** A page cleaned before Readability, with the walk of its body (see `elementsOf`). */
interface CleanPage {
  document: DomDocument;
  walk: BodyWalk;
}

/** A fresh parse of the page (Readability took the first apart), its junk removed as for `junkKind` and its boilerplate as for `kind`. */
function cleanParse(html: string, url: string | undefined, junkKind: PageKind, kind: PageKind): CleanPage {
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

/** The run of sections as the region, from a fresh parse cleaned as the first was. */
function sectionsOf(html: string, url: string | undefined, kind: PageKind, articleChars: number) {
  const again = cleanParse(html, url, kind, kind);
  return again.document.body ? sectionsRegion(again.document.body, articleChars, again.walk) : null;
}

/** The page's own description, the longest it states (meta, OpenGraph or Twitter description), or "". */
function describedAs(document: DomDocument): string {
  const selector =
    "meta[name=description], meta[property='og:description'], meta[name='twitter:description']";
  // The head is where they belong (a short search); the whole page only when the head has none.
  let metas = document.head ? [...document.head.querySelectorAll(selector)] : [];
  if (!metas.length) metas = [...document.querySelectorAll(selector)];
  let longest = "";
  for (const meta of metas) {
    const text = (meta.getAttribute("content") ?? "").replace(/\s+/g, " ").trim();
    if (text.length > longest.length) longest = text;
  }
  return longest;
}

/** Makes the region's links absolute, as Readability does for its article. */
function absolutizeLinks(root: DomElement, url: string): void {
  for (const a of root.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href") ?? "";
    if (/^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith("#")) continue;
    try {
      a.setAttribute("href", new URL(href, url).href);
    } catch {
      // An unparseable href stays as the page wrote it.
    }
  }
}
