/**
 * Reading and seeding the saved state of a conversation's browser (./browser-session.ts): the
 * cookies and each page's local storage read for saving, and the profile's state put into the
 * store on a conversation's first launch.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { ProfileLoader } from "./browser-session-types";
import { READ_STORAGE_SCRIPT } from "./page-content";
import { sitesOf } from "./profile-state";
import type { SavedCookie, SavedStorage, TabStore } from "./tab-store";

/** What one page's storage read gives: its origin, its local storage (null when unreadable) and its document. */
export interface StorageRead {
  origin: string;
  entries: [string, string][] | null;
  document: number;
}

/**
 * Saves the browser's cookies and every page's local storage into the store so a rebuilt session
 * looks the same; `seen` hears each page's read. A page mid-navigation fails the read and nothing
 * is saved (the next call saves again).
 */
export async function saveBrowserState(
  store: TabStore,
  pages: Page[],
  cdpOf: (page: Page) => Promise<CDPSession>,
  seen: (page: Page, read: StorageRead) => void,
): Promise<void> {
  const storage: SavedStorage = {};
  let cookies: SavedCookie[] = [];
  try {
    const read = await readBrowserState(pages, cdpOf);
    cookies = read.cookies;
    for (const [i, result] of read.reads.entries()) {
      seen(pages[i], result);
      if (result.entries && result.origin !== "null") storage[result.origin] = result.entries;
    }
  } catch {
    return; // a page mid-navigation; the next call saves again
  }
  store.saveState(cookies, storage);
}

/**
 * The browser's cookies and every page's storage, read at once (one round trip's worth of
 * waiting); `cdpOf` gives a page's CDP session (the cookies are read through the first page's).
 */
async function readBrowserState(
  pages: Page[],
  cdpOf: (page: Page) => Promise<CDPSession>,
): Promise<{ cookies: SavedCookie[]; reads: StorageRead[] }> {
  const [raw, reads] = await Promise.all([
    cdpOf(pages[0]).then((cdp) => cdp.send("Network.getAllCookies")),
    Promise.all(pages.map((page) => page.evaluate(READ_STORAGE_SCRIPT))),
  ]);
  const cookies = raw.cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite,
    ...(c.session ? {} : { expires: c.expires }),
  }));
  return { cookies, reads: reads as StorageRead[] };
}

/**
 * On the first launch of a conversation with a profile: its state becomes the saved state;
 * `noted` hears of a profile that no longer exists.
 */
export async function seedFromProfile(
  store: TabStore,
  profile: ProfileLoader | undefined,
  noted: (text: string) => void,
): Promise<void> {
  if (!profile || store.profileSites() !== null) return;
  const state = await profile.load();
  if (!state) {
    noted(`The browser profile ${profile.name} no longer exists; the browser started without it.`);
    store.seedFromProfile(store.cookies(), store.storage(), []);
    return;
  }
  store.seedFromProfile(state.cookies, state.storage, sitesOf(state));
}
