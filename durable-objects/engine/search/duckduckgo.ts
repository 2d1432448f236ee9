/** DuckDuckGo's HTML endpoint (the default engine, no key): request and result-page parser. */
import { parseHTML } from "linkedom";
import { SearchError } from "../errors";
import type { DomDocument } from "../../extractor";
import { cleanResults, type SearchResult, unwrapUrl } from "./result";

/** Where DuckDuckGo's no-JavaScript results live. */
export const DUCKDUCKGO_BASE_URL = "https://html.duckduckgo.com";

/** The request for one query. */
export function duckduckgoRequest(base: string, query: string): Request {
  const url = `${base.replace(/\/$/, "")}/html/?${new URLSearchParams({ q: query })}`;
  return new Request(url, { headers: { accept: "text/html" } });
}

const text = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** Parses a result page of the html (or lite) endpoint; a bot check or an unknown page is an error. */
export function parseDuckDuckGo(html: string): SearchResult[] {
  if (/anomaly-modal|challenge-form|bots use DuckDuckGo too/i.test(html)) {
    throw new SearchError(
      "search_blocked",
      "DuckDuckGo answered with a bot check (CAPTCHA) instead of results. Try again later or configure another search engine.",
    );
  }
  const doc = parseHTML(html).document as unknown as DomDocument;
  const results: SearchResult[] = [];
  for (const block of doc.querySelectorAll(".result")) {
    if (/result--ad/.test(block.getAttribute("class") ?? "") || block.querySelector(".badge--ad")) continue;
    const link = block.querySelector("a.result__a");
    if (!link) continue;
    results.push({
      title: text(link.textContent),
      url: unwrapUrl(link.getAttribute("href") ?? ""),
      snippet: text(block.querySelector(".result__snippet")?.textContent),
    });
  }
  for (const link of doc.querySelectorAll("a.result-link")) {
    const row = link.parentElement?.parentElement;
    results.push({
      title: text(link.textContent),
      url: unwrapUrl(link.getAttribute("href") ?? ""),
      snippet: text(row?.nextElementSibling?.querySelector(".result-snippet")?.textContent),
    });
  }
  const cleaned = cleanResults(results);
  if (cleaned.length === 0 && !doc.querySelector(".no-results") && !/No\s+(more\s+)?results/i.test(html)) {
    throw new SearchError(
      "search_failed",
      "DuckDuckGo answered with a page that has neither results nor a 'no results' notice; its layout may have changed.",
    );
  }
  return cleaned;
}
