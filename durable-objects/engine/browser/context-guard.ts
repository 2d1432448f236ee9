/**
 * What a conversation's browser context gets from its session's request guard (./request-guard.ts):
 * its rules for every request of its pages, popups, frames and workers, the refusals of its tabs'
 * navigations, its downloads; and popups: a page one of its tabs opens (window.open, a
 * target=_blank link or form) becomes a listed tab under the same guard, any other is closed.
 */
import type { Browser, BrowserContext, Page, Target } from "@cloudflare/puppeteer";
import { type Clock, realClock, retryTransient } from "./fleet/launch";
import type { NavigationPolicy } from "./navigation-guard";
import {
  type ContextGuard,
  existingGuard,
  type RequestGuard,
  type ResponseHandler,
  requestGuardOf,
  type TargetInfo,
} from "./request-guard";
import { DEFAULT_WINDOW_ID, type TabStore } from "./tab-store";

/** The conversation's side of its context's guard. */
export interface GuardedTabs {
  /** The tracked pages by tab id. */
  readonly pages: Map<number, Page>;
  readonly store: TabStore;
  policy(): NavigationPolicy;
  downloads?: ResponseHandler;
  /** A tab's navigation was refused, and why. */
  refused(tabId: number, reason: string): void;
  /** Registers a page under a tab id. */
  track(tabId: number, page: Page): Promise<void>;
  /** Tells the model something at the end of the current tool call. */
  noted(text: string): void;
}

/** The CDP target id of a page (stable for the page's life, also across reconnects). */
export function targetId(page: Page): string {
  return (page.target() as unknown as { _targetId: string })._targetId;
}

/** The tab whose page has this target id, or null. */
export function tabOfTarget(pages: Map<number, Page>, id: string): number | null {
  for (const [tabId, page] of pages) if (targetId(page) === id) return tabId;
  return null;
}

/**
 * The browser's root CDP connection, through a session on any of its targets. Puppeteer learns of
 * the browser target from an event that a fresh connection may not have had yet ("Browser target is
 * not found" under load), so any target will do, and none yet is waited for, briefly.
 */
async function browserConnection(browser: Browser, clock: Clock = realClock): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const targets = browser.targets();
    const target = targets.find((t) => t.type() === "browser") ?? targets[0];
    if (target) {
      const probe = await retryTransient(() => target.createCDPSession());
      const connection = probe.connection();
      await probe.detach().catch(() => {});
      return connection;
    }
    if (attempt >= 20) throw new Error("Browser target is not found");
    await clock.sleep(50 * attempt);
  }
}

/** The request guard of a browser session (made on first use, on the browser's root connection). */
async function sessionGuard(browser: Browser): Promise<RequestGuard> {
  return existingGuard(browser) ?? requestGuardOf(browser, (await browserConnection(browser)) as never);
}

/** Arms a session's request guard (once): from then on every request of its pages is decided by it. */
export async function armGuard(browser: Browser): Promise<void> {
  await (await sessionGuard(browser)).arm();
}

/**
 * Arms the guard of a session the fleet reconnected to after a restart, before any of its contexts
 * is back: their pages ran unguarded since the old connection ended, and from now on every request
 * is refused until its conversation's context is put back under the guard.
 */
export async function armSession(browser: Browser): Promise<void> {
  const guard = await sessionGuard(browser);
  await guard.arm();
  // A shared or service worker keeps the loaders it started with (remaking them does not reach its
  // requests): it is ended; a service worker starts again on its next event, guarded. The browser's
  // own list is read, not puppeteer's, which a fresh connection may not have filled yet.
  const { targetInfos } = (await guard.send("Target.getTargets", {})) as { targetInfos: TargetInfo[] };
  for (const { targetId, type } of targetInfos)
    if (ENDED_TYPES.has(type)) await guard.send("Target.closeTarget", { targetId }).catch(() => {});
  for (const target of browser.targets()) if (REMADE_TYPES.has(target.type())) await remakeLoaders(target);
}

/**
 * A frame loaded before interception began keeps loading around it until its loaders are remade:
 * a page-level Fetch.enable (matching nothing) and disable remakes those of every frame of the
 * page and of the dedicated workers they started.
 */
async function remakeLoaders(target: Target): Promise<void> {
  const cdp = await target.createCDPSession().catch(() => null);
  if (!cdp) return;
  await cdp.send("Fetch.enable", { patterns: [] }).catch(() => {});
  await cdp.send("Fetch.disable").catch(() => {});
  await cdp.detach().catch(() => {});
}

/** Targets whose frames' loaders are remade when a kept session's guard is armed. */
const REMADE_TYPES = new Set(["page", "other"]);
/** Targets ended when a kept session's guard is armed (their loaders cannot be remade). */
const ENDED_TYPES = new Set(["shared_worker", "service_worker"]);

/** Puts a context under its session's request guard and adopts its popups; returns the undoing. */
export async function guardContext(context: BrowserContext, tabs: GuardedTabs): Promise<() => void> {
  const guard = await sessionGuard(context.browser());
  const contextId = context.id ?? "";
  const hooks: ContextGuard = {
    policy: () => tabs.policy(),
    hasFrame: (frameId) =>
      [...tabs.pages.values()].some((p) =>
        p.frames().some((f) => (f as unknown as { _id: string })._id === frameId),
      ),
    onRefusal: (frameId, reason) => {
      const tabId = tabOfTarget(tabs.pages, frameId);
      if (tabId !== null) tabs.refused(tabId, reason);
      return tabId !== null;
    },
    onResponse: tabs.downloads,
  };
  const onTarget = (target: Target) => {
    adoptPopup(target, tabs).catch(() => {});
  };
  context.on("targetcreated", onTarget);
  await guard.add(contextId, hooks);
  if (!tabs.policy().allowPrivateNetwork) await denyLocalNetwork(guard, contextId);
  return () => {
    context.off("targetcreated", onTarget);
    guard.remove(contextId);
  };
}

/**
 * Chromium's Local Network Access, denied for the context: a public page's requests and
 * WebSockets to private or local addresses fail after the address is resolved (a host name that
 * resolves inside, which no rule on names can see). A Chromium without the permission ignores it.
 */
async function denyLocalNetwork(guard: RequestGuard, browserContextId: string): Promise<void> {
  await guard
    .send("Browser.setPermission", {
      permission: { name: "local-network-access" },
      setting: "denied",
      browserContextId,
    })
    .catch(() => {});
}

/** A page a tab opened becomes a listed tab of the opener's window; a page opened by anything else is closed. */
async function adoptPopup(target: Target, tabs: GuardedTabs): Promise<void> {
  const { openerId } = (target as unknown as { _getTargetInfo(): { openerId?: string } })._getTargetInfo();
  if (target.type() !== "page" || !openerId) return; // a page Cirrus opened itself
  const page = await target.page().catch(() => null);
  if (!page || page.isClosed() || tabOfTarget(tabs.pages, targetId(page)) !== null) return;
  const openerTab = tabOfTarget(tabs.pages, openerId);
  if (openerTab === null) {
    await page.close().catch(() => {});
    return;
  }
  const windowId = tabs.store.tab(openerTab)?.window_id ?? DEFAULT_WINDOW_ID;
  const tab = tabs.store.addTab(windowId, page.url() || "about:blank", targetId(page));
  await tabs.track(tab.id, page);
  tabs.noted(`Tab ${openerTab}'s page opened a new tab: tab ${tab.id} (see list_tabs).`);
}
