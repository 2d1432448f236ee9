/** What the fleet's pool (./browser-pool.ts) hands out, reports and needs from its object. */
import type { BrowserContext, BrowserWorker } from "@cloudflare/puppeteer";
import type { FleetLimits } from "../../config/browser-config";
import type { BlankPage } from "../browser-session-types";
import type { Clock } from "./launch";
import type { PoolRecords } from "./pool-records";
import type { WaitSummary } from "./wait-stats";

/** The pool's counters (since the object started, but `launches`, which is kept). */
export interface PoolStats {
  sessions: number;
  contexts: number;
  waiting: number;
  /** Sessions with a spare context ready. */
  spares: number;
  queued: number;
  launches: number;
  peak: number;
  /** Time to get a new context: how many ever, how many sampled (the newest WAIT_SAMPLES), percentiles of the sample. */
  waits: WaitSummary;
}

/** A conversation's context, and whether it is new (empty: its state must be restored). */
export interface Lease {
  context: BrowserContext;
  fresh: boolean;
  sessionId: string;
  /** The new context's blank page and a CDP session on it, when it was the session's spare. */
  blank?: BlankPage;
}

/** What the pool needs from its object. */
export interface PoolDeps {
  binding(): BrowserWorker;
  records: PoolRecords;
  limits: FleetLimits;
  clock: Clock;
  /** Whether a conversation's context must stay (a live view or a take-over is on it). */
  pinned(conv: string): boolean;
}
