/** Baidu web search (no key): request and result-page parser (2018–2026 layouts). */
import { parseHTML } from "linkedom";
import { SearchError } from "../errors";
import type { DomDocument, DomElement } from "../../extractor";
import { cleanResults, type SearchResult } from "./result";

/** Baidu's search host. */
export const BAIDU_BASE_URL = "https://www.baidu.com";

/** The request for one query. */
export function baiduRequest(base: string, query: string, count: number): Request {
  const url = `${base.replace(/\/$/, "")}/s?${new URLSearchParams({ wd: query, rn: String(count), ie: "utf-8" })}`;
  return new Request(url, { headers: { accept: "text/html" } });
}

const text = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** The real target of a card: `mu`, or the `s-data` comment's feedback URL, else its (redirect) link. */
function cardUrl(card: DomElement, link: DomElement): string {
  const mu = card.getAttribute("mu");
  if (mu && /^https?:/.test(mu)) return mu;
  return link.getAttribute("href") ?? "";
}

function snippetOf(card: DomElement): string {
  const el =
    card.querySelector(".c-abstract") ??
    card.querySelector("[data-module='abstract']") ??
    card.querySelector("[class*='summary-text']") ??
    card.querySelector(".content-right_8Zs40");
  return text(el?.textContent);
}

/** Whether a card is an ad (推广/广告 labels, EC_ classes, or the ad template ids). */
function isAd(card: DomElement): boolean {
  const cls = card.getAttribute("class") ?? "";
  if (/\bEC_|\bec_/i.test(cls) || card.hasAttribute("data-tuiguang")) return true;
  return [...card.querySelectorAll("span, a")].some((el) => /^(广告|推广)$/.test(text(el.textContent)));
}

/** Parses a result page; a security check page or an unknown page is an error. */
export function parseBaidu(html: string): SearchResult[] {
  if (/wappass\.baidu\.com|百度安全验证|安全验证/.test(html) && !/class="result c-container/.test(html)) {
    throw new SearchError(
      "search_blocked",
      "Baidu answered with a security check (CAPTCHA) instead of results.",
    );
  }
  const doc = parseHTML(html).document as unknown as DomDocument;
  const results: SearchResult[] = [];
  for (const card of doc.querySelectorAll("div.result.c-container")) {
    if (isAd(card)) continue;
    const link = card.querySelector("h3 a");
    if (!link) continue;
    results.push({ title: text(link.textContent), url: cardUrl(card, link), snippet: snippetOf(card) });
  }
  const cleaned = cleanResults(results);
  if (cleaned.length === 0 && !/抱歉没有找到|没有找到该URL|class="nors"/.test(html)) {
    throw new SearchError(
      "search_failed",
      "Baidu answered with a page that has neither results nor a 'no results' notice; its layout may have changed.",
    );
  }
  return cleaned;
}

/** Whether a URL is one of Baidu's opaque redirect links (`/link?url=…`). */
export function isBaiduRedirect(url: string): boolean {
  return /^https?:\/\/[^/]*baidu\.com\/link\?url=/.test(url);
}
