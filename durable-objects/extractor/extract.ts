/**
 * Main-content extraction, in order: the page is parsed once and its junk removed (page-junk.ts),
 * the boilerplate of its kind goes (boilerplate.ts), the main content is chosen (select.ts) and
 * cleaned, and the result becomes Markdown, cleaned line by line (markdown-passes.ts). Every pass
 * is named, in order, in passes.ts.
 */
import { removeAuthorBio } from "./author-bio";
import { removeBoilerplate } from "./boilerplate";
import { removeCardControls } from "./card-controls";
import { cleanProductCards } from "./collection-page";
import type { DomDocument, DomElement } from "./dom-types";
import { separateGluedItems } from "./glued-items";
import { markdownWords, toMarkdown } from "./markdown";
import { cleanMarkdown } from "./markdown-passes";
import { headlineOf, type PageMetadata, readJsonLd, readMetadata } from "./metadata";
import { removeOtherProducts } from "./other-products";
import { type PageKind, pageKind } from "./page-kind";
import { removePageJunk } from "./page-junk";
import { parsePage, wasCut } from "./parse-page";
import { passOn } from "./passes";
import { removeRepeatedLinkLabels, unlinkIdleLinks } from "./repeated-links";
import { selectContent } from "./select";
import { removeSignupBoxes } from "./signup-boxes";
import { removeStoryRails } from "./story-rails";
import { removeThreadEdges } from "./thread-edges";

/** The main content of a page. */
export interface Extracted {
  title: string;
  /** The main content; "" when the page's HTML shows none (a page drawn by script, a blocked page). */
  markdown: string;
  metadata: PageMetadata;
  /** The page's own description (meta, OpenGraph or Twitter), longest first; "" when it states none. */
  description: string;
  /** The page's markup was longer than the extractor reads (`MAX_MARKUP_CHARS`): its start was read. */
  truncated?: true;
}

/** Extracts the main content of an HTML page as Markdown. */
export function extractMainContent(html: string, url?: string): Extracted {
  const ld = readJsonLd(html);
  const document = parsePage(html, url);
  const metadata = readMetadata(document, ld);
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  const headline = passOn("headline") ? headlineOf(document, title, metadata, url) : undefined;
  // A page that says it is an article is read by Readability alone, on the page as it is.
  const kind = pageKind(document, ld);
  const description = describedAs(document);
  const walk = removePageJunk(document, kind);
  const thread = document.body ? removeBoilerplate(document.body, kind, walk) : false;
  const { chosen, fromRegion, articleTitle } = selectContent({ document, walk, kind, title, thread });
  if (chosen && url && fromRegion) absolutizeLinks(chosen, url);
  if (chosen)
    cleanChosen(chosen, kind, {
      dated: metadata.published_at !== undefined,
      url,
      fromRegion,
      author: metadata.author,
    });
  let markdown = chosen ? toMarkdown(chosen, true) : "";
  markdown = cleanMarkdown(markdown, kind, kind === "forum" || thread);
  // Content without a word (links around pictures only) is none: web_fetch says the page shows none.
  if (!markdownWords(markdown)) markdown = "";
  const heading = headline || articleTitle?.trim() || title || metadata.title || "";
  if (heading && (headline || !metadata.title)) metadata.title = heading;
  return { title: heading, markdown, metadata, description, ...(wasCut(document) && { truncated: true }) };
}

/** What the cleaning passes know of the page beside its content. */
interface ChosenFrom {
  /** The page states when it was published. */
  dated: boolean;
  /** The page's URL. */
  url?: string;
  /** The content is the page's region, not Readability's article. */
  fromRegion: boolean;
  /** The author the page states (metadata). */
  author?: string;
}

/** The cleaning passes of the chosen content, whichever it is. */
function cleanChosen(
  chosen: DomElement,
  kind: PageKind,
  { dated, url, fromRegion, author }: ChosenFrom,
): void {
  // Beyond shops, the links every card of a listing repeats ("More like this") are its buttons.
  if (kind !== "product" && passOn("card-controls")) removeCardControls(chosen);
  // Beyond products, a grid of priced cards repeats its buttons in every card (one query when the content shows no prices).
  if (kind !== "product" && passOn("product-cards")) cleanProductCards(chosen);
  // Beyond articles and products, a link label repeated under many items ("See details") is a control.
  if ((kind === "other" || kind === "forum") && passOn("repeated-link-labels"))
    removeRepeatedLinkLabels(chosen);
  // A thread's chrome before its first post and after its last (crumbs, counts, other topics); a
  // page that does not say it is a forum shows a thread only by its dated posts.
  if ((kind === "forum" || kind === "other") && passOn("thread-edges"))
    removeThreadEdges(chosen, kind === "other");
  // A dated story's rails of teaser cards ("Top video", other headlines) beside it.
  if (kind === "article" && dated && passOn("story-rails")) removeStoryRails(chosen);
  // A product's page shows other products in cards linking to pages shaped like its own.
  if (kind === "product" && url && passOn("other-products")) removeOtherProducts(chosen, url);
  // A newsletter's sign-up box (marked before its e-mail field went) is no part of the content.
  if (!fromRegion && passOn("signup-boxes")) removeSignupBoxes(chosen);
  // Inline items printed with no space between them (a film's year, length, rating) are words apart.
  if (passOn("glued-items")) separateGluedItems(chosen);
  // A box about the page's stated author, after the story.
  if (passOn("author-bio")) removeAuthorBio(chosen, author);
  // Links the reader gains nothing from: into this page (permalinks), wordless twins of worded ones.
  if (passOn("idle-links")) unlinkIdleLinks(chosen, url);
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
