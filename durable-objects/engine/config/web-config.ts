/** The web tools' limits, from the one environment schema (./env.ts). */
import type { NetworkPolicy } from "../net/ssrf";
import { readEnv } from "./env";

/** Everything tunable about the web tools. */
export interface WebConfig extends NetworkPolicy {
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  fetchMaxPdfBytes: number;
  fetchMaxDocxBytes: number;
  searchTimeoutMs: number;
}

/** Reads WEB_FETCH_TIMEOUT_MS, WEB_FETCH_MAX_BYTES, WEB_FETCH_MAX_PDF_BYTES, WEB_FETCH_MAX_DOCX_BYTES, WEB_SEARCH_TIMEOUT_MS and ALLOW_PRIVATE_NETWORK. */
export function webConfig(env: object): WebConfig {
  const v = readEnv(env);
  return {
    allowPrivateNetwork: v.ALLOW_PRIVATE_NETWORK,
    fetchTimeoutMs: v.WEB_FETCH_TIMEOUT_MS,
    fetchMaxBytes: v.WEB_FETCH_MAX_BYTES,
    fetchMaxPdfBytes: v.WEB_FETCH_MAX_PDF_BYTES,
    fetchMaxDocxBytes: v.WEB_FETCH_MAX_DOCX_BYTES,
    searchTimeoutMs: v.WEB_SEARCH_TIMEOUT_MS,
  };
}
