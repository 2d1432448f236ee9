/** The browser's settings from the one environment schema (./env.ts) and the conversation. */
import type { BrowserSessionOptions } from "../browser/browser-session";
import type { DownloadLimits } from "../browser/downloads";
import type { LiveViewOptions } from "../browser/live-view";
import { readEnv } from "./env";

/** Reads BROWSER_IDLE_MS, PAGE_SCRIPT_TIMEOUT_MS and ALLOW_PRIVATE_NETWORK; `allowedDomains` comes from the conversation. */
export function browserConfig(env: object, allowedDomains: string[] | undefined): BrowserSessionOptions {
  const v = readEnv(env);
  return {
    idleMs: v.BROWSER_IDLE_MS,
    scriptTimeoutMs: v.PAGE_SCRIPT_TIMEOUT_MS,
    policy: { allowPrivateNetwork: v.ALLOW_PRIVATE_NETWORK, allowedDomains: allowedDomains ?? null },
  };
}

/** Caps on files through the browser: uploads' size, downloads' size and count per run. */
export interface BrowserFilesLimits {
  uploadMaxBytes: number;
  downloads: DownloadLimits;
}

/** Reads BROWSER_UPLOAD_MAX_BYTES, BROWSER_DOWNLOAD_MAX_BYTES and BROWSER_DOWNLOADS_PER_RUN. */
export function browserFilesConfig(env: object): BrowserFilesLimits {
  const v = readEnv(env);
  return {
    uploadMaxBytes: v.BROWSER_UPLOAD_MAX_BYTES,
    downloads: { maxBytes: v.BROWSER_DOWNLOAD_MAX_BYTES, maxPerRun: v.BROWSER_DOWNLOADS_PER_RUN },
  };
}

/** Reads LIVE_VIEW_MAX_FPS and SSE_HEARTBEAT_MS for the tabs' live views. */
export function liveViewConfig(env: object): LiveViewOptions {
  const v = readEnv(env);
  return { maxFps: v.LIVE_VIEW_MAX_FPS, heartbeatMs: v.SSE_HEARTBEAT_MS };
}

/** The fleet's limits: sessions, contexts per session, launch pace, daily budget, queue wait, price, spares. */
export interface FleetLimits {
  maxSessions: number;
  contextsPerSession: number;
  launchIntervalMs: number;
  /** Browser time a workspace may use per UTC day. */
  dailyMs: number;
  queueTimeoutMs: number;
  /** A conversation's context is closed after this long unused (its tabs are remembered). */
  idleMs: number;
  /** Dollars per browser hour (cost_usd of browser time). */
  hourPriceUsd: number;
  /** Empty contexts (one blank page each) kept ready per browser, so a new conversation does not wait for one (0 or 1). */
  sparesPerSession: number;
}

/** Reads the BROWSER_* limits of the fleet. */
export function fleetLimits(env: object): FleetLimits {
  const v = readEnv(env);
  return {
    maxSessions: v.BROWSER_MAX_SESSIONS,
    contextsPerSession: v.BROWSER_CONTEXTS_PER_SESSION,
    launchIntervalMs: v.BROWSER_LAUNCH_INTERVAL_MS,
    dailyMs: v.BROWSER_DAILY_MINUTES * 60_000,
    queueTimeoutMs: v.BROWSER_QUEUE_TIMEOUT_MS,
    idleMs: v.BROWSER_IDLE_MS,
    hourPriceUsd: v.BROWSER_HOUR_PRICE_USD,
    sparesPerSession: v.BROWSER_SPARE_CONTEXTS,
  };
}
