/** The browser's settings from the one environment schema (./env.ts) and the conversation. */
import type { BrowserSessionOptions } from "../browser/browser-session";
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

/** Reads LIVE_VIEW_MAX_FPS and SSE_HEARTBEAT_MS for the tabs' live views. */
export function liveViewConfig(env: object): LiveViewOptions {
  const v = readEnv(env);
  return { maxFps: v.LIVE_VIEW_MAX_FPS, heartbeatMs: v.SSE_HEARTBEAT_MS };
}
