/** The JSON search APIs: Bing Web Search v7, Google Custom Search, Brave Search and SearXNG. */
import { SearchError } from "../errors";
import { cleanResults, parseJson, plainText, type SearchResult, unwrapUrl } from "./result";

/** Bing Web Search's API host. */
export const BING_BASE_URL = "https://api.bing.microsoft.com";
/** Google Custom Search's API host. */
export const GOOGLE_BASE_URL = "https://www.googleapis.com";
/** Brave Search's API host. */
export const BRAVE_BASE_URL = "https://api.search.brave.com";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const trimBase = (base: string) => base.replace(/\/$/, "");

/** Throws the API's own error message when the body is an error object. */
function throwApiError(engine: string, body: Json): void {
  const error = obj(body.error);
  const message = str(error.message) || str(error.detail) || str(body.message) || str(error.code);
  if (message) throw new SearchError("search_failed", `${engine} returned an error: ${message}`);
}

/** Bing Web Search API v7 request (key in `Ocp-Apim-Subscription-Key`). */
export function bingRequest(base: string, query: string, count: number, key: string): Request {
  const q = new URLSearchParams({ q: query, count: String(count), textDecorations: "false" });
  return new Request(`${trimBase(base)}/v7.0/search?${q}`, { headers: { "Ocp-Apim-Subscription-Key": key } });
}

/** Parses a Bing `SearchResponse`; `url` may be a `bing.com/cr?r=` redirect in old responses. */
export function parseBing(body: string): SearchResult[] {
  const json = obj(parseJson("Bing", body));
  throwApiError("Bing", json);
  const pages = arr(obj(json.webPages).value);
  return cleanResults(
    pages.map((p) => ({
      title: str(p.name),
      url: unwrapUrl(str(p.url)),
      snippet: plainText(str(p.snippet)),
    })),
  );
}

/** Google Custom Search JSON API request (key and engine id as query parameters). */
export function googleRequest(base: string, query: string, count: number, key: string, cx: string): Request {
  const q = new URLSearchParams({ key, cx, q: query, num: String(Math.min(count, 10)) });
  return new Request(`${trimBase(base)}/customsearch/v1?${q}`);
}

/** Parses a `customsearch#search` response (no `items` means no results). */
export function parseGoogle(body: string): SearchResult[] {
  const json = obj(parseJson("Google Custom Search", body));
  throwApiError("Google Custom Search", json);
  return cleanResults(
    arr(json.items).map((i) => ({
      title: str(i.title) || plainText(str(i.htmlTitle)),
      url: str(i.link),
      snippet: str(i.snippet).replace(/\s+/g, " ").trim() || plainText(str(i.htmlSnippet)),
    })),
  );
}

/** Brave Search API request (key in `X-Subscription-Token`). */
export function braveRequest(base: string, query: string, count: number, key: string): Request {
  const q = new URLSearchParams({ q: query, count: String(count) });
  return new Request(`${trimBase(base)}/res/v1/web/search?${q}`, {
    headers: { accept: "application/json", "X-Subscription-Token": key },
  });
}

/** Parses a Brave `search` response; descriptions carry `<strong>` and entities. */
export function parseBrave(body: string): SearchResult[] {
  const json = obj(parseJson("Brave Search", body));
  throwApiError("Brave Search", json);
  return cleanResults(
    arr(obj(json.web).results).map((r) => ({
      title: plainText(str(r.title)),
      url: str(r.url),
      snippet: plainText(str(r.description)),
    })),
  );
}

/** A SearXNG instance's JSON API request (`format=json` must be enabled on the instance). */
export function searxngRequest(base: string, query: string): Request {
  const q = new URLSearchParams({ q: query, format: "json" });
  return new Request(`${trimBase(base)}/search?${q}`, { headers: { accept: "application/json" } });
}

/** Parses SearXNG's JSON; no results while every engine failed is an error, not "nothing found". */
export function parseSearxng(body: string): SearchResult[] {
  const json = obj(parseJson("SearXNG", body));
  const results = cleanResults(
    arr(json.results).map((r) => ({
      title: str(r.title),
      url: str(r.url),
      snippet: plainText(str(r.content)),
    })),
  );
  const failed = Array.isArray(json.unresponsive_engines) ? json.unresponsive_engines : [];
  if (results.length === 0 && failed.length > 0) {
    const reasons = failed.map((e) => (Array.isArray(e) ? e.join(": ") : String(e))).join("; ");
    throw new SearchError("search_failed", `SearXNG found nothing because its engines failed (${reasons}).`);
  }
  return results;
}
