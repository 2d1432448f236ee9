/**
 * A session's spare context: an empty context with one blank page, made ahead of need under the
 * session's armed request guard, so a conversation's first call waits for neither a context nor a
 * page. The pool (browser-pool.ts) decides when one is made and who takes it; this is how.
 */
import type { Browser, BrowserContext } from "@cloudflare/puppeteer";
import type { BlankPage } from "../browser-session";
import { armGuard } from "../context-guard";
import { type ContextRules, rulesKey } from "../websocket-guard";
import { retryTransient } from "./launch";

/** An empty context kept ready on a session. */
export interface Spare extends BlankPage {
  context: BrowserContext;
  /** The WebSocket rules it was made under (their key): only a conversation with the same takes it. */
  rules: string;
}

/** A session's spare: being made (`ready` null), ready, or none (null). */
export type SpareSlot = { ready: Spare | null } | null;

/** A context under a conversation's WebSocket rules (../websocket-guard.ts); refused rules fail (never a context without them). */
export function createContext(browser: Browser, rules: ContextRules | null): Promise<BrowserContext> {
  return rules ? browser.createBrowserContext(rules) : browser.createBrowserContext();
}

/** An empty context with a blank page, made under the browser's armed guard (its requests are refused until a conversation takes it); null when it failed or `stillWanted` says no. */
export async function makeSpare(
  browser: Browser,
  rules: ContextRules | null,
  stillWanted: () => boolean,
): Promise<Spare | null> {
  let context: BrowserContext | null = null;
  try {
    await armGuard(browser);
    context = await createContext(browser, rules);
    const page = await retryTransient(() => context!.newPage());
    const cdp = await page.createCDPSession();
    if (!stillWanted()) throw new Error("session gone");
    return { context, page, cdp, rules: rulesKey(rules) };
  } catch {
    await context?.close().catch(() => {});
    return null;
  }
}

/**
 * The session's spare when it is ready and made under the conversation's WebSocket rules (it is
 * no longer the session's), else null: one still being made is left for a later conversation
 * (on a busy browser it can take longer than a context without a page); one under other rules
 * is closed (the next is made under the newest conversation's).
 */
export function takeSpare(
  session: { spare: SpareSlot; browser: Browser },
  rules: ContextRules | null,
): Spare | null {
  const spare = session.spare?.ready ?? null;
  if (!spare) return null;
  session.spare = null;
  if (spare.rules !== rulesKey(rules) || spare.page.isClosed() || !session.browser.isConnected()) {
    spare.context.close().catch(() => {});
    return null;
  }
  return spare;
}
