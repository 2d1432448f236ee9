/**
 * What a browser profile holds (every cookie, HttpOnly included, and each origin's local storage)
 * and the rule for saving into it: a save replaces, site by site, what the profile holds for the
 * sites the saving browser knows — the sites it has state for now plus the ones it started with
 * from the profile — and keeps every other site. So two conversations on one profile keep each
 * other's logins on different sites, and on the same site the later save wins.
 */
import type { SavedCookie, SavedStorage } from "./tab-store";

/** A profile's saved browser state. */
export interface ProfileState {
  cookies: SavedCookie[];
  storage: SavedStorage;
}

/** The empty state of a new profile. */
export const EMPTY_PROFILE: ProfileState = { cookies: [], storage: {} };

/** The site (hostname) a cookie belongs to. */
export const cookieSite = (c: SavedCookie): string => c.domain.replace(/^\./, "").toLowerCase();

/** The site (hostname) of a local-storage origin, or null for opaque origins. */
export function originSite(origin: string): string | null {
  try {
    return new URL(origin).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** The sites a state holds anything for, sorted. */
export function sitesOf(state: ProfileState): string[] {
  const sites = new Set(state.cookies.map(cookieSite));
  for (const origin of Object.keys(state.storage)) {
    const site = originSite(origin);
    if (site) sites.add(site);
  }
  return [...sites].sort();
}

/** Drops cookies that have expired (session cookies, without `expires`, are kept). */
export function liveCookies(cookies: SavedCookie[], nowMs = Date.now()): SavedCookie[] {
  return cookies.filter((c) => c.expires === undefined || c.expires < 0 || c.expires * 1000 > nowMs);
}

/** The profile after a save of `snapshot` by a browser that started with `knownSites` from it. */
export function mergeIntoProfile(
  profile: ProfileState,
  snapshot: ProfileState,
  knownSites: string[],
): { state: ProfileState; replaced: string[] } {
  const replaced = new Set([...sitesOf(snapshot), ...knownSites]);
  const cookies = [
    ...profile.cookies.filter((c) => !replaced.has(cookieSite(c))),
    ...liveCookies(snapshot.cookies),
  ];
  const storage: SavedStorage = {};
  for (const [origin, entries] of Object.entries(profile.storage)) {
    const site = originSite(origin);
    if (site && !replaced.has(site)) storage[origin] = entries;
  }
  for (const [origin, entries] of Object.entries(snapshot.storage))
    if (entries.length > 0) storage[origin] = entries;
  return { state: { cookies, storage }, replaced: [...replaced].sort() };
}
