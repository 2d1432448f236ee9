/** The browser's settings from the Worker's environment and the conversation. */
import { type BrowserSessionOptions, DEFAULT_BROWSER_IDLE_MS } from "../browser/browser-session";
import { DEFAULT_LIVE_MAX_FPS, type LiveViewOptions } from "../browser/live-view";
import { PAGE_SCRIPT_TIMEOUT_MS } from "../browser/page-eval";

function positive(raw: unknown, fallback: number): number {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Reads BROWSER_IDLE_MS, PAGE_SCRIPT_TIMEOUT_MS and ALLOW_PRIVATE_NETWORK; `allowedDomains` comes from the conversation. */
export function browserConfig(
  env: Record<string, unknown>,
  allowedDomains: string[] | undefined,
): BrowserSessionOptions {
  return {
    idleMs: positive(env.BROWSER_IDLE_MS, DEFAULT_BROWSER_IDLE_MS),
    scriptTimeoutMs: positive(env.PAGE_SCRIPT_TIMEOUT_MS, PAGE_SCRIPT_TIMEOUT_MS),
    policy: {
      allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === "true",
      allowedDomains: allowedDomains ?? null,
    },
  };
}

/** Reads LIVE_VIEW_MAX_FPS and SSE_HEARTBEAT_MS for the tabs' live views. */
export function liveViewConfig(env: Record<string, unknown>): LiveViewOptions {
  return {
    maxFps: positive(env.LIVE_VIEW_MAX_FPS, DEFAULT_LIVE_MAX_FPS),
    heartbeatMs: positive(env.SSE_HEARTBEAT_MS, 15_000),
  };
}
