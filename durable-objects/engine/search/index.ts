/** Runs one web search on the workspace's engine: request, fetch (SSRF-guarded), parse, unwrap. */
import type { SearchSettings } from "../../../schemas/settings";
import { NetError, SearchError } from "../errors";
import { assertFetchable, guardedFetch, type NetworkPolicy } from "../net/ssrf";
import { BAIDU_BASE_URL, baiduRequest, isBaiduRedirect, parseBaidu } from "./baidu";
import { DUCKDUCKGO_BASE_URL, duckduckgoRequest, parseDuckDuckGo } from "./duckduckgo";
import {
  BING_BASE_URL,
  BRAVE_BASE_URL,
  bingRequest,
  braveRequest,
  GOOGLE_BASE_URL,
  googleRequest,
  parseBing,
  parseBrave,
  parseGoogle,
  parseSearxng,
  searxngRequest,
} from "./json-engines";
import type { SearchResult } from "./result";

/** A browser-like User-Agent: the HTML engines serve bot checks to unknown agents more often. */
export const SEARCH_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
/** Longest a result page may be (bytes). */
export const MAX_SEARCH_BODY_BYTES = 3_000_000;

/** What a search needs besides the query. */
export interface SearchOptions {
  policy: NetworkPolicy;
  timeoutMs: number;
  signal: AbortSignal;
}

const ENGINE_LABEL: Record<SearchSettings["engine"], string> = {
  duckduckgo: "DuckDuckGo",
  bing: "Bing",
  baidu: "Baidu",
  google: "Google Custom Search",
  brave: "Brave Search",
  searxng: "SearXNG",
};

function buildRequest(s: SearchSettings, query: string, count: number): Request {
  const base = (fallback: string) => (s.engine === "searxng" ? null : s.base_urls[s.engine]) ?? fallback;
  switch (s.engine) {
    case "duckduckgo":
      return duckduckgoRequest(base(DUCKDUCKGO_BASE_URL), query);
    case "baidu":
      return baiduRequest(base(BAIDU_BASE_URL), query, count);
    case "bing":
      return bingRequest(base(BING_BASE_URL), query, count, s.bing_api_key ?? "");
    case "google":
      return googleRequest(
        base(GOOGLE_BASE_URL),
        query,
        count,
        s.google_api_key ?? "",
        s.google_cse_id ?? "",
      );
    case "brave":
      return braveRequest(base(BRAVE_BASE_URL), query, count, s.brave_api_key ?? "");
    case "searxng":
      return searxngRequest(s.searxng_url ?? "", query);
  }
}

const PARSERS: Record<SearchSettings["engine"], (body: string) => SearchResult[]> = {
  duckduckgo: parseDuckDuckGo,
  baidu: parseBaidu,
  bing: parseBing,
  google: parseGoogle,
  brave: parseBrave,
  searxng: parseSearxng,
};

function httpError(label: string, status: number, engine: SearchSettings["engine"]): SearchError {
  if (status === 401 || status === 403) {
    const hint =
      engine === "searxng"
        ? " (is `json` listed under search.formats in its settings.yml?)"
        : " (check the API key in Settings)";
    return new SearchError("search_failed", `${label} refused the request with HTTP ${status}${hint}.`);
  }
  if (status === 429)
    return new SearchError(
      "search_rate_limited",
      `${label} is rate-limiting requests (HTTP 429). Try again later.`,
    );
  return new SearchError("search_failed", `${label} answered HTTP ${status}; no results could be read.`);
}

/** Resolves Baidu's opaque `/link?url=` redirects to the real URLs (first hop's Location). */
async function resolveBaiduLinks(
  results: SearchResult[],
  s: SearchSettings,
  opts: SearchOptions,
): Promise<void> {
  await Promise.all(
    results.map(async (r) => {
      if (!isBaiduRedirect(r.url)) return;
      const link = new URL(r.url);
      const target = new URL(
        `${(s.base_urls.baidu ?? BAIDU_BASE_URL).replace(/\/$/, "")}${link.pathname}${link.search}`,
      );
      try {
        assertFetchable(target, opts.policy);
        const res = await fetch(target.href, {
          redirect: "manual",
          signal: opts.signal,
          headers: { "user-agent": SEARCH_USER_AGENT },
        });
        await res.body?.cancel();
        const location = res.headers.get("location");
        if (location && /^https?:\/\//.test(location)) r.url = location;
      } catch {
        // Keeps the Baidu link: it still leads to the page when opened or fetched.
      }
    }),
  );
}

/** Keeps API keys (which can sit in the request URL, as Google's does) out of messages the model reads. */
function redact(message: string, requestUrl: string, s: SearchSettings): string {
  let out = message.split(requestUrl).join(`${new URL(requestUrl).origin}/…`);
  for (const key of [s.bing_api_key, s.google_api_key, s.brave_api_key])
    if (key) out = out.split(key).join("***");
  return out;
}

/** Searches and returns at most `count` results; any engine failure is a SearchError. */
export async function runSearch(
  s: SearchSettings,
  query: string,
  count: number,
  opts: SearchOptions,
): Promise<SearchResult[]> {
  const label = ENGINE_LABEL[s.engine];
  const req = buildRequest(s, query, count);
  req.headers.set("user-agent", SEARCH_USER_AGENT);
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  let body: string;
  let status: number;
  try {
    const { response } = await guardedFetch(
      req.url,
      { headers: req.headers, method: req.method, signal },
      opts.policy,
    );
    status = response.status;
    body = await response.text();
  } catch (err) {
    if (err instanceof NetError)
      throw new SearchError(err.code, redact(err.message, req.url, s), { cause: err });
    if (opts.signal.aborted) throw err;
    if (signal.aborted)
      throw new SearchError("search_timeout", `${label} did not answer within ${opts.timeoutMs / 1000} s.`);
    throw new SearchError("search_failed", `${label} could not be reached: ${(err as Error).message}`);
  }
  if (body.length > MAX_SEARCH_BODY_BYTES) body = body.slice(0, MAX_SEARCH_BODY_BYTES);
  // DuckDuckGo serves its bot check with HTTP 202 (a 2xx): the parser recognises and names it.
  if (status < 200 || status >= 300) throw httpError(label, status, s.engine);
  const results = PARSERS[s.engine](body).slice(0, count);
  if (s.engine === "baidu") await resolveBaiduLinks(results, s, opts);
  return results;
}
