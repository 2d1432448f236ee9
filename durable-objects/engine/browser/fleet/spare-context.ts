/**
 * A session's spare context: an empty context with one blank page, made ahead of need under the
 * session's armed request guard, so a conversation's first call waits for neither a context nor a
 * page (a page's renderer takes seconds to start on a busy browser). The pool (./browser-pool.ts)
 * decides who takes it; this is how one is made, kept and taken.
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

/** What keeping a spare needs to know of its session. */
export interface SpareHolder {
  browser: Browser;
  spare: SpareSlot;
}

/** A context under a conversation's WebSocket rules (../websocket-guard.ts); refused rules fail (never a context without them). */
export function createContext(browser: Browser, rules: ContextRules | null): Promise<BrowserContext> {
  return rules ? browser.createBrowserContext(rules) : browser.createBrowserContext();
}

/**
 * Starts making a session's spare when it has none (after a call: off any call's path), under the
 * newest conversation's rules (`rules()`, read again when it is ready); `stillHeld` says whether
 * the session is still the pool's.
 */
export function keepSpare(
  session: SpareHolder,
  rules: () => ContextRules | null,
  stillHeld: () => boolean,
): void {
  if (session.spare || !session.browser.isConnected()) return;
  const slot: NonNullable<SpareSlot> = { ready: null };
  session.spare = slot;
  makeSpare(session.browser, rules(), stillHeld).then((spare) => {
    // A spare that failed (the browser went away meanwhile) is tried again after a later call.
    if (session.spare !== slot) spare?.context.close().catch(() => {});
    else if (!spare) session.spare = null;
    else if (spare.rules === rulesKey(rules())) slot.ready = spare;
    else {
      // Newer conversations' rules came meanwhile: made again under them.
      spare.context.close().catch(() => {});
      session.spare = null;
      keepSpare(session, rules, stillHeld);
    }
  });
}

/** An empty context with a blank page, made under the browser's armed guard (its requests are refused until a conversation takes it); null when it failed or the session is gone. */
async function makeSpare(
  browser: Browser,
  rules: ContextRules | null,
  stillHeld: () => boolean,
): Promise<Spare | null> {
  let context: BrowserContext | null = null;
  try {
    await armGuard(browser);
    context = await createContext(browser, rules);
    const page = await retryTransient(() => context!.newPage());
    const cdp = await page.createCDPSession();
    if (!stillHeld()) throw new Error("session gone");
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
export function takeSpare(session: SpareHolder, rules: ContextRules | null): Spare | null {
  const spare = session.spare?.ready ?? null;
  if (!spare) return null;
  session.spare = null;
  if (spare.rules !== rulesKey(rules) || spare.page.isClosed() || !session.browser.isConnected()) {
    spare.context.close().catch(() => {});
    return null;
  }
  return spare;
}
