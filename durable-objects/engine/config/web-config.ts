/** The web tools' limits, read from environment variables with safe defaults. */
import type { NetworkPolicy } from "../net/ssrf";

/** web_fetch gives up after this long (the tool spec's 30 s). */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
/** At most this many bytes of a page are downloaded; the rest is cut off. */
export const DEFAULT_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** At most this many bytes of a PDF are downloaded (a PDF cut short cannot be read, so it is refused). */
export const DEFAULT_FETCH_MAX_PDF_BYTES = 20 * 1024 * 1024;
/** A search engine gets this long to answer. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;

/** Everything tunable about the web tools. */
export interface WebConfig extends NetworkPolicy {
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  fetchMaxPdfBytes: number;
  searchTimeoutMs: number;
}

function positive(raw: unknown, fallback: number): number {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Reads WEB_FETCH_TIMEOUT_MS, WEB_FETCH_MAX_BYTES, WEB_FETCH_MAX_PDF_BYTES, WEB_SEARCH_TIMEOUT_MS and ALLOW_PRIVATE_NETWORK. */
export function webConfig(env: Record<string, unknown>): WebConfig {
  return {
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === "true" || env.ALLOW_PRIVATE_NETWORK === true,
    fetchTimeoutMs: positive(env.WEB_FETCH_TIMEOUT_MS, DEFAULT_FETCH_TIMEOUT_MS),
    fetchMaxBytes: positive(env.WEB_FETCH_MAX_BYTES, DEFAULT_FETCH_MAX_BYTES),
    fetchMaxPdfBytes: positive(env.WEB_FETCH_MAX_PDF_BYTES, DEFAULT_FETCH_MAX_PDF_BYTES),
    searchTimeoutMs: positive(env.WEB_SEARCH_TIMEOUT_MS, DEFAULT_SEARCH_TIMEOUT_MS),
  };
}
