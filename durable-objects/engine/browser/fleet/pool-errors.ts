/** What a browser tool call is told when the fleet's own limits stop it (the platform's are ./launch.ts's). */
import type { FleetLimits } from "../../config/browser-config";
import { BrowserError } from "../../errors";

/** Every browser is in use and none freed up within the queue's time-out. */
export function busyError(limits: FleetLimits): BrowserError {
  return new BrowserError(
    "browser_busy",
    `Every browser of this workspace is in use (${limits.maxSessions} browsers × ${limits.contextsPerSession} conversations) and none freed up within ${Math.round(limits.queueTimeoutMs / 1000)} s. Try the browser again later, or go on without it.`,
  );
}

/** The workspace used its browser minutes for the day. */
export function budgetError(dailyMs: number): BrowserError {
  return new BrowserError(
    "browser_budget",
    `This workspace has used its ${Math.round(dailyMs / 60_000)} browser minutes for today (BROWSER_DAILY_MINUTES); the browser is available again after 00:00 UTC. Go on without it.`,
  );
}
