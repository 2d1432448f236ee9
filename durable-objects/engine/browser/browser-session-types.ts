/**
 * The contract of a conversation's browser (./browser-session.ts): its settings, where its context
 * comes from (the fleet's pool), where its profile's state comes from, and the constants its
 * callers share.
 */
import type { BrowserContext, CDPSession, Page } from "@cloudflare/puppeteer";
import type { NavigationPolicy } from "./navigation-guard";
import type { ProfileState } from "./profile-state";
import type { ResponseHandler } from "./request-guard";
import type { ContextRules } from "./websocket-guard";

/** A blank page made ahead of need (a fleet browser's spare), with its CDP session. */
export interface BlankPage {
  page: Page;
  cdp: CDPSession;
}

/** How long navigation may take when a tool waits for the page to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;
/** Errors that mean the browser (not the page or the script) is gone. */
export const BROWSER_GONE =
  /Failed to open a new tab|Target closed|Session closed|Connection closed|WebSocket|browser has disconnected|Protocol error \(Target\./i;
/** What the model is told after a rebuild. */
export const REBUILD_NOTE =
  "The browser session had ended and was restarted: open tabs were reloaded at their last URLs with cookies and local storage restored. Unsaved page state (form input, scroll position) may be lost.";

/** Settings of a conversation's browser. */
export interface BrowserSessionOptions {
  idleMs: number;
  policy: NavigationPolicy;
  /** How long one execute_script in a page may run. */
  scriptTimeoutMs: number;
  /** Where a page's downloads are caught (at the response stage of the request guard). */
  downloads?: ResponseHandler;
}

/** Where a conversation's context comes from: the fleet's pool. */
export interface ContextSource {
  /** The conversation's context: kept, or new (`fresh`: empty, state must be restored). */
  lease(
    rules: ContextRules | null,
  ): Promise<{ context: BrowserContext; fresh: boolean; sessionId: string; blank?: BlankPage }>;
  /** Closes the conversation's context (its session closes when no other conversation uses it); `lost`: its browser died under a call. */
  drop(lost?: boolean): Promise<void>;
}

/** Where a conversation's browser gets its profile's state from, on its first launch. */
export interface ProfileLoader {
  name: string;
  load(): Promise<ProfileState | null>;
}
