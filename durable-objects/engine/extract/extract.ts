/**
 * Main-content extraction: the page is cleaned of boilerplate (navigation, sidebars, footers,
 * cookie banners, ads), Readability picks the article, and the result becomes Markdown.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { cleanArticle, isInside } from "./article-cleanup";
import type { DomDocument, DomElement } from "./dom-types";
import { toMarkdown } from "./markdown";
import { type PageMetadata, readJsonLd, readMetadata } from "./metadata";

/** Readability gives up below this many characters and we fall back to the cleaned body. */
export const MIN_ARTICLE_CHARS = 250;

/** Elements that never hold article text. */
const JUNK_TAGS =
  "canvas, iframe, object, embed, button, select, input, textarea, nav, aside, dialog, link, meta";

/** A junk-labelled block inside the article is removed when it holds less than this share of its text. */
export const JUNK_SHARE = 0.3;

/** Class/id words of boilerplate blocks. */
const JUNK_ATTR =
  /(^|[\s_-])(cookie|consent|gdpr|newsletter|subscribe|signup|paywall|promo|advert|ads?|sponsor|social|share|sharing|related|recommend|outbrain|taboola|comments?|disqus|breadcrumbs?|sidebar|nav|navbar|menu|footer|masthead|popup|modal|banner|toolbar|skip|caption|credits?|byline|author|dateline|timestamp|tags|topics|gallery|slideshow|print|more)($|[\s_-])/i;

/** Blocks dropped from the HTML text before parsing, as a browser would end them (much cheaper than parsing them). */
const RAW_JUNK =
  /<(script|style|svg|noscript|template|nav|aside|footer|select|button|iframe|canvas|object)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

/** The main content of a page. */
export interface Extracted {
  title: string;
  markdown: string;
  metadata: PageMetadata;
}

function removePageJunk(doc: DomDocument): void {
  for (const el of [...doc.querySelectorAll(JUNK_TAGS)]) el.remove();
  for (const el of [...doc.querySelectorAll("[role=navigation], [role=complementary], [hidden]")])
    el.remove();
}

function removeArticleJunk(root: DomElement): void {
  const total = (root.textContent ?? "").length;
  for (const el of [...root.querySelectorAll("[class], [id]")]) {
    if (!isInside(el, root)) continue;
    const label = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    if (!JUNK_ATTR.test(label)) continue;
    if ((el.textContent ?? "").length < total * JUNK_SHARE) el.remove();
  }
  for (const el of [...root.querySelectorAll("figcaption, figure, time")]) el.remove();
}

/** Extracts the main content of an HTML page as Markdown. */
export function extractMainContent(html: string, url?: string): Extracted {
  const ld = readJsonLd(html);
  const document = parseHTML(html.replace(RAW_JUNK, "")).document as unknown as DomDocument;
  const metadata = readMetadata(document, ld);
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  if (url) setBase(document, url);
  removePageJunk(document);
  const article = readArticle(document);
  if (article?.content) {
    removeArticleJunk(article.content);
    cleanArticle(article.content, article.title ?? title);
  }
  const content = article?.content ? toMarkdown(article.content) : "";
  const fallback = content.length >= MIN_ARTICLE_CHARS ? "" : document.body ? toMarkdown(document.body) : "";
  const markdown =
    content.length >= MIN_ARTICLE_CHARS || content.length >= fallback.length ? content : fallback;
  const heading = article?.title?.trim() || title;
  if (heading && !metadata.title) metadata.title = heading;
  return { title: heading, markdown, metadata };
}

function setBase(document: DomDocument, url: string): void {
  if (document.querySelector("base[href]")) return;
  const head = document.head ?? document.documentElement;
  const base = document.createElement("base");
  base.setAttribute("href", url);
  head?.prepend(base);
}

/** Readability's article, or null when it finds none or trips over the document. */
function readArticle(document: DomDocument) {
  try {
    return new Readability<DomElement>(document as never, {
      disableJSONLD: true,
      serializer: (n) => n as unknown as DomElement,
    }).parse();
  } catch {
    return null;
  }
}
