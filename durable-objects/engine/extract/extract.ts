/**
 * Main-content extraction: the page is cleaned of boilerplate (navigation, sidebars, footers,
 * cookie banners, ads), Readability picks the article, and the result becomes Markdown.
 */
import { cleanArticle, isInside } from "./article-cleanup";
import {
  ARTICLE_JUNK_ATTR,
  removeArticleForms,
  removeAuthorBoxes,
  removeClosingAuthorBio,
} from "./article-promos";
import { removeCountedComments, removeFigures, textBesideComments } from "./article-sections";
import { removeBoilerplate } from "./boilerplate";
import { removeCardControls } from "./card-controls";
import { removeCardCopies } from "./card-copies";
import { inCode } from "./code-blocks";
import { cleanProductCards } from "./collection-page";
import { isDisclosedPanel, regionHoldsFoldedPanels } from "./disclosures";
import { clearMisleadingLabels, isCodeTab, regionKeepsStructure } from "./doc-pages";
import { lazyTextLength, textLength } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import { FOLDED_HIDING, foldedPanels, unfold } from "./folded-content";
import { separateGluedItems } from "./glued-items";
import { isGuideBesideGrid, MIN_GUIDE_CHARS } from "./grid-guide";
import { isShortControl, junkLabel, labelNames } from "./junk-labels";
import { removeAnnouncements } from "./live-regions";
import { removeListViewCopies } from "./list-views";
import { toMarkdown } from "./markdown";
import { cleanMarkdown } from "./markdown-passes";
import { dropTemplateBindings } from "./template-bindings";
import { type PageMetadata, readJsonLd, readMetadata } from "./metadata";
import { type PageKind, pageKind } from "./page-kind";
import { removeJunkTags } from "./page-repair";
import { removeRepeatedLinkLabels } from "./repeated-links";
import { isEncodedTwice, repairedMetadata, repairMojibake } from "./mojibake";
import { parsePage } from "./parse-page";
import { type BodyWalk, stillUnder, walkPage } from "./page-walk";
import { removeRepeatedControls } from "./post-lists";
import { regionHoldsSpecs, removeProductSections } from "./product-page";
import { removeInactiveLinkTabs } from "./inactive-tabs";
import { removeRatingInputs } from "./rating-inputs";
import { mainRegion, removeChrome, removeProductGrids } from "./region";
import { printedParagraphs, restoreArticleIntro } from "./article-intro";
import { articleProbe, runOverArticle, runTextOf, sectionRun, sectionsRegion } from "./service-sections";
import { isCommentsBesideStory, isTableArticle, missesThread } from "./thread-choice";
import { removeTwinBlocks } from "./twin-blocks";
import { removeBreakpointTwins, screenCopies } from "./breakpoint-twins";
import { readArticle } from "./read-article";
import { passOn } from "./passes";

/** Readability gives up below this many characters and we fall back to the cleaned body. */
export const MIN_ARTICLE_CHARS = 250;

/** A junk-labelled block inside the article is removed when it holds less than this share of its text. */
export const JUNK_SHARE = 0.3;

/** Class/id words of boilerplate blocks. */
const JUNK_ATTR =
  /(^|[\s_-])(cookie|consent|gdpr|newsletter|subscribe|signup|paywall|promo|advert|ads?|sponsor|social|share|sharing|related|recommend|outbrain|taboola|comments?|disqus|breadcrumbs?|sidebar|nav|navbar|menu|footer|masthead|popup|modal|banner|toolbar|caption|credits?|byline|author|dateline|timestamp|tags|topics|gallery|slideshow|print)($|[\s_-])/i;

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

/** Class/id words that are the content on a forum: the posts are comments, each with its author and time. */
const FORUM_POST_ATTR = /comment|author|byline|dateline|timestamp|disqus/i;

/** Whether the element's label names junk on a page that states it is an article. */
function isArticleJunk(el: DomElement): boolean {
  const label = junkLabel(el);
  return labelNames(JUNK_ATTR, label) || ARTICLE_JUNK_ATTR.test(label);
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
  // The paragraphs as the page prints them, before Readability moves them (an article's introduction may be left behind).
  const printed = kind === "article" ? printedParagraphs(walk.elements, document) : null;
  const article = readArticle(document, kind);
  const probe = run && article?.content ? articleProbe(article.content) : "";
  if (article?.content) {
    removeArticleJunk(article.content, kind);
    if (passOn("article-chrome")) removeChrome(article.content, undefined, undefined, kind === "forum");
    // Priced cards are other products on a product page or an article, but the content of a category page.
    // In a story, a list of picks each told in a sentence with its price is the story's text.
    if ((kind === "product" || kind === "article") && passOn("product-grids"))
      removeProductGrids(article.content, kind === "article");
    cleanArticle(article.content, article.title ?? title, kind !== "forum" && kind !== "article");
    if (passOn("author-boxes")) removeAuthorBoxes(article.content);
    if (kind === "article") {
      if (passOn("article-forms")) removeArticleForms(article.content);
      // The author's biography closing the story names the author the page states.
      if (passOn("closing-bio")) removeClosingAuthorBio(article.content, metadata.author);
    }
  }
  const articleChars = article?.content ? textLength(article.content) : 0;
  if (!region && articleChars < MIN_ARTICLE_CHARS) {
    // Readability took the page apart and found little: read the region from a fresh parse.
    region = regionOf(cleanParse(html, url, "other", kind), kind, false);
  }
  const thin = region !== null;
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
  // Readers' comments under a story outweigh it on a news site; the story is the page.
  const comments =
    kind === "other" && region && article?.content && passOn("comments-beside-story")
      ? isCommentsBesideStory(region.node, article.content)
      : false;
  const useRegion =
    !comments &&
    (sections ||
      (region &&
        (articleChars < MIN_ARTICLE_CHARS ||
          (kind === "article"
            ? textBesideComments(region.node, region.chars) > articleChars * REGION_OVER_PARTIAL_ARTICLE
            : (commented ? textBesideComments(region.node, region.chars) : region.chars) >
                articleChars * (missed ? THREAD_OVER_ARTICLE : REGION_OVER_ARTICLE) ||
              (article?.content != null &&
                ((passOn("structure-region") &&
                  regionKeepsStructure(region.node, region.chars, article.content, articleChars)) ||
                  // The answers of an FAQ accordion that Readability skipped as hidden (a product's tabs are read apart).
                  (kind !== "product" &&
                    passOn("folded-region") &&
                    regionHoldsFoldedPanels(region.node, region.chars, article.content, articleChars)) ||
                  // A product's spec table in a tab beside the overview Readability took.
                  (kind === "product" &&
                    passOn("specs-region") &&
                    regionHoldsSpecs(region.node, region.chars, article.content, articleChars))))))));
  const chosen = useRegion ? region?.node : article?.content;
  // A dated thread printed on a page labelled article (its posts may be list items: XenForo 1's
  // `li.message`) keeps no per-post controls and poster stats, as on a forum page.
  if (chosen && kind === "article" && passOn("article-post-controls"))
    removeRepeatedControls(chosen, true, undefined, true);
  // A story's opening paragraphs printed in their own block above the body Readability took.
  if (kind === "article" && chosen && !useRegion && passOn("article-intro"))
    restoreArticleIntro(chosen, printed, isArticleJunk);
  // A category's guide printed outside the region of its grid (Readability's article) follows the grid.
  if (
    chosen &&
    useRegion &&
    article?.content &&
    articleChars >= MIN_GUIDE_CHARS &&
    passOn("guide-beside-grid")
  )
    if (isGuideBesideGrid(chosen, article.content)) chosen.append(article.content);
  if (chosen && url && useRegion) absolutizeLinks(chosen, url);
  // An article read from its region (Readability found too little) loses its junk-labelled blocks as Readability's would.
  if (chosen && useRegion && thin && kind === "article" && !sections && passOn("region-article-junk"))
    removeArticleJunk(chosen, kind);
  // A story read from its region on a page that states no type and holds no thread keeps no readers' comments.
  if (chosen && useRegion && kind === "other" && !thread && passOn("counted-comments"))
    removeCountedComments(chosen);
  // A listing may print each card twice (one layout per screen size): each text is kept once.
  if (chosen && kind === "other" && passOn("card-copies")) removeCardCopies(chosen);
  // Beyond shops, the links every card of a listing repeats ("More like this") are its buttons.
  if (chosen && kind !== "product" && passOn("card-controls")) removeCardControls(chosen);
  // A rate-this control ("1 of 5 stars" ... "5 of 5 stars", links to nowhere) is a form, not text.
  if (chosen && passOn("rating-inputs")) removeRatingInputs(chosen);
  // The hidden panels of a tab set of link lists ("Trending: 7 days | 1 month") are not shown.
  if (chosen && passOn("inactive-tabs")) removeInactiveLinkTabs(chosen);
  // A listing printed once per view (grid and list) is read once, in its fuller copy.
  if (chosen && passOn("list-view-copies")) removeListViewCopies(chosen);
  if (chosen && kind === "product") {
    if (passOn("product-sections")) removeProductSections(chosen);
    // A grid of priced cards repeats its buttons in every card (one query when the content shows no prices).
  } else if (chosen && passOn("product-cards")) cleanProductCards(chosen);
  // Beyond articles and products, a link label repeated under many items ("See details") is a control.
  if (chosen && (kind === "other" || kind === "forum") && passOn("repeated-link-labels"))
    removeRepeatedLinkLabels(chosen);
  // What the page announces to screen readers ("loaded 338 results") is a message, not content.
  if (chosen && passOn("announcements")) removeAnnouncements(chosen);
  // A block printed twice side by side (one copy per screen size, a carousel's loop) is read once.
  const copies = screenCopies();
  if (chosen && passOn("twin-blocks")) removeTwinBlocks(chosen, copies.measured);
  // The same block printed per screen size in other markup (a little reworded, wrapped apart) is
  // read once: the desktop's copy, or the fuller one.
  if (chosen && passOn("breakpoint-twins")) removeBreakpointTwins(chosen, copies);
  // Inline items printed with no space between them (a film's year, length, rating) are words apart.
  if (chosen && passOn("glued-items")) separateGluedItems(chosen);
  // A binding a script would have filled in (`{{ errors[7].message }}`) is no one's text.
  let markdown = chosen ? toMarkdown(chosen, true) : "";
  if (passOn("template-bindings")) markdown = dropTemplateBindings(markdown);
  markdown = cleanMarkdown(markdown, kind, ld, kind === "forum" || !!thread);
  const heading = article?.title?.trim() || title;
  if (heading && !metadata.title) metadata.title = heading;
  // A page stored as UTF-8 read as Latin-1 ("doesnât") is read as the words it meant.
  if (passOn("mojibake") && isEncodedTwice(markdown))
    return {
      title: repairMojibake(heading),
      markdown: repairMojibake(markdown),
      metadata: repairedMetadata(metadata),
      description: repairMojibake(description),
    };
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
