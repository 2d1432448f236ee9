/** The search result shape and the helpers every engine parser shares. */
import { z } from "zod";
import { SearchError } from "../errors";
import { decodeEntities } from "../net/html-entities";

/** One search result as web_search returns it. */
export const SearchResult = z.object({
  title: z.string().describe("The result's title"),
  url: z.string().describe("The result's real URL (redirect wrappers removed)"),
  snippet: z.string().describe("A short excerpt of the page"),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** Removes tags and decodes entities from a snippet that carries markup (Brave, Google htmlSnippet). */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/** Unwraps redirect links (DuckDuckGo `/l/?uddg=`, Bing `/cr?r=` and `/ck/a?u=a1…`, Google `/url?q=`). */
export function unwrapUrl(href: string, base = "https://duckduckgo.com"): string {
  let url: URL;
  try {
    url = new URL(href.startsWith("//") ? `https:${href}` : href, base);
  } catch {
    return href;
  }
  const p = url.searchParams;
  if (url.pathname === "/l/" && p.get("uddg")) return p.get("uddg")!;
  if (url.pathname === "/cr" && p.get("r")) return p.get("r")!;
  if (url.pathname === "/url" && (p.get("q") || p.get("url"))) return (p.get("q") || p.get("url"))!;
  const u = p.get("u");
  if (url.pathname === "/ck/a" && u?.startsWith("a1")) {
    try {
      return atob(u.slice(2).replace(/-/g, "+").replace(/_/g, "/"));
    } catch {
      return url.href;
    }
  }
  return url.href;
}

/** Parses a JSON body, or fails with a clear error naming the engine. */
export function parseJson(engine: string, body: string): unknown {
  try {
    return JSON.parse(body.replace(/^\uFEFF/, ""));
  } catch {
    throw new SearchError(
      "search_failed",
      `${engine} answered with something that is not JSON; no results could be read.`,
    );
  }
}

/** Keeps results with a title and an http(s) URL, without duplicates. */
export function cleanResults(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    if (!r.title || !/^https?:\/\//i.test(r.url) || seen.has(r.url)) return false;
    seen.add(r.url);
    return true;
  });
}
