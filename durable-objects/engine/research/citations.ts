/**
 * A result's citations and quotations, checked against what the run read. Citations are Markdown
 * links and bare http(s) URLs; quotations are passages of six words or more in quotation marks
 * ("…", “…”, „…“, «…»). A quotation belongs to the citation of its paragraph or list item (the
 * first one after it, else the last one before it); one with no citation there is checked against
 * every page read. A URL counts as read when a read's requested or final URL is the same page
 * (scheme, fragment and a trailing slash ignored), and a redirect joins the two.
 */
import type { Citation, UncitedQuote } from "../../../schemas/research";
import { containsShingles, isQuotation, matchWords, shingles } from "./text-match";

/** One page the run read, as the check needs it. */
export interface PageRead {
  url: string | null;
  final_url: string | null;
  /** The shingles of the text read; null when only the URL was opened (open_tab). */
  hashes: Uint32Array | null;
}

/** The outcome of one check. */
export interface CitationCheck {
  citations: Citation[];
  uncited_quotes: UncitedQuote[];
  /** Citations never read plus quotations not found (an unread citation's quotes are not counted again). */
  unverified: number;
}

interface Span {
  start: number;
  end: number;
}
interface Link extends Span {
  url: string;
}
interface Quote extends Span {
  text: string;
}

const MD_LINK = /\[[^\]\n]*\]\(\s*<?(https?:\/\/(?:[^\s()<>]|\([^\s()]*\))+)>?(?:\s+"[^"\n]*")?\s*\)/g;
const BARE_URL = /https?:\/\/[^\s<>"'`[\]{}|\\^]+/g;
const QUOTES = [/"([^"\n]+(?:\n(?![ \t]*\n)[^"\n]+)*)"/g, /“([^”]+?)”/g, /„([^“”]+?)[“”]/g, /«([^»]+?)»/g];
const FENCE = /```[\s\S]*?```/g;

/** The key two URLs of the same page share; null for what is not an http(s) URL. */
export function urlKey(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    const path = u.pathname.replace(/\/+$/, "");
    return `${u.host}${path}${u.search}`;
  } catch {
    return null;
  }
}

/** The text of a result to look for citations in: a string as it is, else every string value in it. */
export function resultText(output: unknown): string {
  if (typeof output === "string") return output;
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(output);
  return parts.join("\n\n");
}

const blank = (s: string) => s.replace(/[^\n]/g, " ");

/** A bare URL without the punctuation that ends its sentence or closes its parenthesis. */
function trimUrl(url: string): string {
  let u = url.replace(/[.,;:!?*_~]+$/, "");
  while (u.endsWith(")") && (u.match(/\(/g)?.length ?? 0) < (u.match(/\)/g)?.length ?? 0))
    u = u.slice(0, -1).replace(/[.,;:!?*_~]+$/, "");
  return u;
}

/** Links and quotations of a text, with their positions (code blocks skipped). */
export function findCitations(text: string): { links: Link[]; quotes: Quote[] } {
  let masked = text.replace(FENCE, blank);
  const links: Link[] = [];
  for (const m of masked.matchAll(MD_LINK)) {
    const at = m.index + m[0].indexOf("](");
    links.push({ url: m[1], start: m.index, end: m.index + m[0].length });
    masked =
      masked.slice(0, at) +
      blank(masked.slice(at, m.index + m[0].length)) +
      masked.slice(m.index + m[0].length);
  }
  for (const m of masked.matchAll(BARE_URL)) {
    const url = trimUrl(m[0]);
    links.push({ url, start: m.index, end: m.index + url.length });
    masked = masked.slice(0, m.index) + blank(url) + masked.slice(m.index + url.length);
  }
  links.sort((a, b) => a.start - b.start);
  const quotes: Quote[] = [];
  for (const pattern of QUOTES)
    for (const m of masked.matchAll(pattern)) {
      const inner = m[1].replace(/\s+/g, " ").trim();
      if (isQuotation(inner)) quotes.push({ text: inner, start: m.index, end: m.index + m[0].length });
    }
  return { links: links.filter((l) => urlKey(l.url) !== null), quotes };
}

/** Paragraphs and list items: the blocks a quotation looks for its citation in. */
function blocks(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  const lines = text.split("\n");
  let pos = 0;
  for (const line of lines) {
    const isBreak = line.trim() === "";
    const isItem = /^\s*(?:[-*+]|\d+[.)])\s+/.test(line);
    if ((isBreak || isItem) && pos > start) {
      out.push({ start, end: pos });
      start = pos;
    }
    pos += line.length + 1;
    if (isBreak) start = pos;
  }
  if (pos > start) out.push({ start, end: pos });
  return out;
}

/** The link a quotation belongs to: in its block, the first after it, else the last before it. */
function citationOf(q: Quote, links: Link[], parts: Span[]): Link | null {
  const block = parts.find((b) => q.start >= b.start && q.start < b.end);
  if (!block) return null;
  const inBlock = links.filter((l) => l.start >= block.start && l.start < block.end);
  return inBlock.find((l) => l.start >= q.end) ?? inBlock.filter((l) => l.end <= q.start).at(-1) ?? null;
}

/** Groups of URL keys that are one page (a read's requested and final URL), each with the texts read. */
class ReadPages {
  private readonly group = new Map<string, number>();
  private readonly texts: Uint32Array[][] = [];

  constructor(reads: PageRead[]) {
    for (const r of reads) {
      const keys = [r.url, r.final_url].map((u) => (u ? urlKey(u) : null)).filter((k): k is string => !!k);
      if (!keys.length) continue;
      const ids = [
        ...new Set(keys.map((k) => this.group.get(k)).filter((g): g is number => g !== undefined)),
      ];
      const id = ids[0] ?? this.texts.push([]) - 1;
      for (const other of ids.slice(1)) this.merge(other, id);
      for (const k of keys) this.group.set(k, id);
      if (r.hashes) this.texts[id].push(r.hashes);
    }
  }

  private merge(from: number, into: number): void {
    for (const [k, g] of this.group) if (g === from) this.group.set(k, into);
    this.texts[into].push(...this.texts[from]);
    this.texts[from] = [];
  }

  /** The texts read of this URL's page; null when it was never read. */
  textsOf(url: string): Uint32Array[] | null {
    const key = urlKey(url);
    const id = key ? this.group.get(key) : undefined;
    return id === undefined ? null : this.texts[id];
  }

  all(): Uint32Array[] {
    return this.texts.flat();
  }
}

const found = (texts: Uint32Array[], quote: string) => {
  const q = shingles(matchWords(quote));
  return texts.some((t) => containsShingles(t, q));
};

/** Checks every citation and quotation of a result's text against the pages read. */
export function checkCitations(text: string, reads: PageRead[]): CitationCheck {
  const { links, quotes } = findCitations(text);
  const pages = new ReadPages(reads);
  const parts = blocks(text);
  const byKey = new Map<string, Citation>();
  for (const l of links) {
    const key = urlKey(l.url)!;
    if (!byKey.has(key))
      byKey.set(key, { url: l.url, read: pages.textsOf(l.url) !== null, quotes: [], quotes_found: [] });
  }
  const uncited: UncitedQuote[] = [];
  for (const q of quotes) {
    const link = citationOf(q, links, parts);
    if (!link) {
      if (!uncited.some((u) => u.quote === q.text))
        uncited.push({ quote: q.text, found: found(pages.all(), q.text) });
      continue;
    }
    const c = byKey.get(urlKey(link.url)!)!;
    if (c.quotes.includes(q.text)) continue;
    c.quotes.push(q.text);
    if (found(pages.textsOf(c.url) ?? [], q.text)) c.quotes_found.push(q.text);
  }
  const citations = [...byKey.values()];
  const unverified =
    citations.filter((c) => !c.read).length +
    citations.filter((c) => c.read).reduce((n, c) => n + c.quotes.length - c.quotes_found.length, 0) +
    uncited.filter((u) => !u.found).length;
  return { citations, uncited_quotes: uncited, unverified };
}
