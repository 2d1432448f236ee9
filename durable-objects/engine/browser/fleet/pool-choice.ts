/**
 * Where the fleet's pool (./browser-pool.ts) puts a new context, decided without waiting: a
 * session with room (one with a spare ready first, then the fullest), else the slot of the least
 * recently used context nobody is using.
 */
import type { LiveSession } from "./live-sessions";

/** The session a new context goes on, or undefined when none has room (or all are suspect or gone). */
export function sessionWithRoom(
  sessions: Iterable<LiveSession>,
  contextsPerSession: number,
): LiveSession | undefined {
  return [...sessions]
    .filter((s) => s.browser.isConnected() && !s.suspect && s.contexts.size + s.reserved < contextsPerSession)
    .sort(
      (a, b) =>
        Number(!!b.spare?.ready) - Number(!!a.spare?.ready) ||
        b.contexts.size + b.reserved - (a.contexts.size + a.reserved),
    )[0];
}

/**
 * The least recently used context that may be taken (not `except`'s, not in use, not pinned, not
 * on a suspect session), with its session; null when there is none.
 */
export function leastRecentlyUsedIdle(
  sessions: Iterable<LiveSession>,
  except: string,
  mayTake: (conv: string) => boolean,
  lastUse: ReadonlyMap<string, number>,
): [LiveSession, string] | null {
  let best: [LiveSession, string] | null = null;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const s of sessions)
    for (const conv of s.suspect ? [] : s.contexts.keys()) {
      if (conv === except || !mayTake(conv)) continue;
      const at = lastUse.get(conv) ?? 0;
      if (at < bestAt) [best, bestAt] = [[s, conv], at];
    }
  return best;
}
