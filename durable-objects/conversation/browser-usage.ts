/**
 * A conversation's browser time: what the fleet measured for each call (the conversation's share
 * of its sessions' time) goes into the run's usage with its cost at the browser hour's price, and
 * to the workspace's usage ledger; and the CUSTOM `browser_queued` notice of a waiting call.
 */
import type { CirrusEvent } from "../../schemas/events";
import { ev } from "../engine/loop/event-builders";
import type { RunStore } from "../engine/store/run-store";

/** The notice that a browser tool call waits for a free browser (its place in the queue). */
export function browserQueuedEvent(toolCallId: string, position: number): CirrusEvent {
  return ev.custom("browser_queued", { tool_call_id: toolCallId, position });
}

/** Dollars of browser time at a price per hour, to the micro-dollar. */
export const browserCost = (seconds: number, hourPriceUsd: number) =>
  Math.round((seconds / 3600) * hourPriceUsd * 1e6) / 1e6;

/** Charges browser time to runs and reports it. */
export class BrowserMeter {
  constructor(
    private readonly runs: RunStore,
    private readonly hourPriceUsd: number,
    private readonly report: (seconds: number, cost: number) => void,
  ) {}

  /** Adds `ms` of browser time to the run (else the active or newest run) and reports it. */
  add(runId: string | null, ms: number): void {
    if (!(ms > 0)) return;
    const seconds = ms / 1000;
    const cost = browserCost(seconds, this.hourPriceUsd);
    const run = runId ?? this.runs.active()?.id ?? this.runs.latestStarted()?.id ?? null;
    if (run) this.runs.addBrowserTime(run, seconds, cost);
    this.report(seconds, cost);
  }
}
