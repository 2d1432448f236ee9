/**
 * The site-disjoint split of a benchmark's pages: every page of one site (registrable host) falls on
 * the same side, so a rule tuned on the training part is judged on sites it never saw. The side is a
 * hash of the site, so the split is deterministic and needs no list. Held-out pages are reported in
 * aggregate only (never one by one, never named).
 */

/** One page in five sites, by hash, is held out. */
export const HELD_OUT_ONE_IN = 5;

/** Second-level labels under a country code that are not a site of their own (co.uk, com.au, ne.jp). */
const PUBLIC_SECOND_LEVEL = new Set([
  "co",
  "com",
  "org",
  "net",
  "ac",
  "gov",
  "edu",
  "ne",
  "or",
  "go",
  "gob",
  "nic",
]);

/** The registrable host of a URL (example.co.uk for news.example.co.uk); "" when it has none. */
export function siteOf(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
  const labels = host.replace(/\.$/, "").split(".");
  if (labels.length <= 2 || /^\d+$/.test(labels[labels.length - 1])) return labels.join(".");
  const [second, top] = labels.slice(-2);
  const keep = top.length === 2 && PUBLIC_SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join(".");
}

/** FNV-1a, 32 bits: a stable hash with no dependency. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Whether a page is in the held-out part: its site's hash, or (a page with no URL) its own id's,
 * falls in one bucket of `HELD_OUT_ONE_IN`.
 */
export function isHeldOut(url: string, id: string): boolean {
  const site = siteOf(url) || `page:${id}`;
  return fnv1a(site) % HELD_OUT_ONE_IN === 0;
}
