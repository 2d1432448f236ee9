/**
 * Page metadata as web_fetch reports it (title, author, published_at, site_name, language), read
 * from JSON-LD first, then OpenGraph / article: / Dublin Core / plain meta tags, then the markup.
 */
import { lowerWords, textOf } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import { type BlockEnd, blocksOf, elementEnd, innerOf } from "./raw-blocks";

/** What a page states about itself; a field is absent when the page does not state it. */
export interface PageMetadata {
  title?: string;
  author?: string;
  /** ISO 8601: a date (`2025-09-04`) or an instant in UTC (`2025-09-04T10:30:00.000Z`). */
  published_at?: string;
  site_name?: string;
  /** A BCP 47 tag as the page gives it (`en`, `en-GB`, `pt-BR`). */
  language?: string;
}

/** A JSON-LD node: a plain object from a `<script type="application/ld+json">`. */
export type LdNode = Record<string, unknown>;

/** Longest value kept for one metadata field (a runaway meta tag must not flood the result). */
export const MAX_FIELD_CHARS = 300;

/** A JSON-LD block, as `<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>` finds it. */
const LD_OPENER = /<script\b/gi;
const LD_TYPE = /type\s*=\s*["']?application\/ld\+json/gi;
const ldEnd: BlockEnd = (m, find) => elementEnd(m, find, "script", LD_TYPE);

/** Every JSON-LD node of a page's HTML (`@graph` and arrays flattened); unparseable blocks are skipped. */
export function readJsonLd(html: string): LdNode[] {
  const out: LdNode[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === "object") {
      out.push(v as LdNode);
      const graph = (v as LdNode)["@graph"];
      if (graph) walk(graph);
    }
  };
  for (const { at, end } of blocksOf(html, LD_OPENER, ldEnd)) {
    const text = innerOf(html.slice(at, end)).trim();
    walk(parseLd(text.replace(/^<!\[CDATA\[|\]\]>$/g, "")));
  }
  return out;
}

/**
 * A JSON-LD block's value; retried with its line breaks and tabs as spaces (as lenient readers do: JSON allows
 * them only between tokens, but CMSs print them raw inside strings); undefined when broken.
 */
function parseLd(text: string): unknown {
  for (const json of [text, text.replace(/[\t\n\r\f\v]+/g, " ")]) {
    try {
      return JSON.parse(json);
    } catch {
      // Broken JSON-LD is common; the page's other metadata still counts.
    }
  }
  return undefined;
}

/** Whether a JSON-LD node has one of the given `@type`s (case-insensitive, arrays allowed). */
export function ldIs(node: LdNode, pattern: RegExp): boolean {
  const type = node["@type"];
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => typeof t === "string" && pattern.test(t));
}

const clean = (v: unknown): string | undefined => {
  if (typeof v !== "string") return undefined;
  const s = v.replace(/\s+/g, " ").trim();
  return s ? s.slice(0, MAX_FIELD_CHARS) : undefined;
};

/** A person/organisation value as a name: a string, `{name}`, or a list of them joined. */
function nameOf(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    const names = v.map(nameOf).filter((n): n is string => !!n);
    return names.length ? clean([...new Set(names)].join(", ")) : undefined;
  }
  if (v && typeof v === "object") return clean((v as LdNode).name);
  const s = clean(v);
  return s && !/^https?:\/\//.test(s) ? s : undefined;
}

const CREATIVE =
  /^(article|newsarticle|blogposting|report|scholarlyarticle|techarticle|webpage|posting|socialmediaposting|discussionforumposting|qapage|question|product|creativework|review|recipe|howto|medicalwebpage|liveblogposting|analysisnewsarticle|reportagenewsarticle)$/i;

/** Normalises a stated date to ISO 8601, or undefined when it is not a date. */
export function isoDate(raw: string | undefined): string | undefined {
  const s = raw?.trim();
  if (!s) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const t = Date.parse(s);
  if (Number.isNaN(t)) return s.match(/^(\d{4}-\d{2}-\d{2})\b/)?.[1];
  const year = new Date(t).getUTCFullYear();
  return year >= 1900 && year <= 2200 ? new Date(t).toISOString() : undefined;
}

/** The meta tags that state when a page was published, trusted in this order (lower-case, as tags are read). */
const DATE_KEYS =
  "article:published_time datepublished og:published_time date dc.date dc.date.issued dcterms.created pubdate publish-date parsely-pub-date sailthru.date".split(
    " ",
  );

/** Reads the page's metadata from its JSON-LD nodes and its parsed head. */
export function readMetadata(doc: DomDocument, ld: LdNode[]): PageMetadata {
  const tags = new Map<string, string>();
  for (const el of doc.querySelectorAll("meta[content]")) {
    const key = el.getAttribute("property") ?? el.getAttribute("name") ?? el.getAttribute("itemprop");
    const value = clean(el.getAttribute("content"));
    if (key && value && !tags.has(key.toLowerCase())) tags.set(key.toLowerCase(), value);
  }
  const meta = (...keys: string[]) => keys.map((k) => tags.get(k)).find((v) => v !== undefined);
  const attribute = (selector: string, name: string) =>
    clean(doc.querySelector(selector)?.getAttribute(name));
  const main = ld.find((n) => ldIs(n, CREATIVE) && n.headline) ?? ld.find((n) => ldIs(n, CREATIVE));
  const site = ld.find((n) => ldIs(n, /^website$/i));
  const publisher = main?.publisher ?? ld.find((n) => ldIs(n, /^organization$/i));
  const out: PageMetadata = {
    title:
      clean(main?.headline) ??
      meta("og:title", "twitter:title", "dc.title") ??
      clean(doc.querySelector("title")?.textContent),
    author:
      nameOf(main?.author) ??
      meta("author", "article:author", "dc.creator", "parsely-author", "sailthru.author") ??
      nameOf(doc.querySelector("[rel=author], [itemprop=author] [itemprop=name]")?.textContent),
    published_at: isoDate(
      clean(main?.datePublished) ??
        meta(...DATE_KEYS) ??
        // A whole-page query, run only when no statement of the date was found.
        attribute("time[datetime][itemprop~=datePublished], article time[datetime]", "datetime"),
    ),
    site_name: meta("og:site_name", "application-name") ?? nameOf(site?.name) ?? nameOf(publisher),
    language:
      clean(doc.documentElement?.getAttribute("lang"))?.replace(/_/g, "-") ??
      clean(main?.inLanguage) ??
      meta("og:locale", "content-language", "dc.language", "language")?.replace(/_/g, "-") ??
      attribute("meta[http-equiv=content-language], meta[http-equiv=Content-Language]", "content"),
  };
  for (const k of Object.keys(out) as (keyof PageMetadata)[]) if (out[k] === undefined) delete out[k];
  return out;
}

const words = (text = "") => ` ${lowerWords(text)} `;
const longest = (texts: string[]) =>
  texts.reduce<string | undefined>((a, b) => (b.length > (a?.length ?? 0) ? b : a), undefined);

/**
 * The page's headline. Its `<title>` and og:title add the site's name ("Pods | Kubernetes"), and
 * Readability cuts them at a colon ("Superbugs: What They Are" loses "Superbugs"); its headings
 * hold the headline itself. In order: the longest h1, else h2, that a declared title begins with;
 * the longest h1 one holds; the page's only h1. Never a heading that names the site or only links
 * to its home page (a logo); a heading's wordless permalink (`#`, `¶`) is left out.
 */
export function headlineOf(doc: DomDocument, title: string, meta: PageMetadata, url = "") {
  const titles = [title, meta.title].map(words).filter((t) => t.trim());
  const headings = (tag: string) =>
    [...doc.querySelectorAll(tag)].filter((h) => !linksHome(h, url)).map(headingText);
  const named = (hs: string[]) => hs.filter((h) => words(h).trim() && words(h) !== words(meta.site_name));
  const leading = (hs: string[]) => named(hs).filter((h) => titles.some((t) => t.startsWith(words(h))));
  const h1s = headings("h1");
  const held = named(h1s).filter((h) => titles.some((t) => t.includes(words(h))));
  const found = longest(leading(h1s)) ?? longest(leading(headings("h2"))) ?? longest(held);
  return clean(found ?? (h1s.length === 1 ? named(h1s)[0] : undefined));
}

function headingText(heading: DomElement): string {
  const links = [...heading.querySelectorAll("a[href^='#']")].map(textOf);
  let text = textOf(heading);
  for (const mark of links.filter((m) => m && !/[\p{L}\p{N}]/u.test(m)))
    if (text.endsWith(mark)) text = text.slice(0, -mark.length).trim();
  return text;
}

function linksHome(heading: DomElement, url: string): boolean {
  const a = heading.querySelector("a[href]");
  if (!a || textOf(a) !== textOf(heading) || !URL.canParse(a.getAttribute("href") ?? "", url)) return false;
  return new URL(a.getAttribute("href") ?? "", url).pathname.replace(/\/(index\.\w+)?$/, "") === "";
}
