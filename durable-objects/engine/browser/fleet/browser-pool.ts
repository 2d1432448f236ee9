/**
 * The fleet's browsers: at most `maxSessions` sessions (one connection each, held here), each
 * serving up to `contextsPerSession` conversations in isolated browser contexts. A conversation
 * that finds no room waits in a first-come-first-served queue (told its position) until a context
 * frees, a launch is allowed, or its wait times out (`browser_busy`). New browsers are launched no
 * faster than `launchIntervalMs` apart and not once the day's browser time is used up. A waiting
 * conversation may take the slot of the least recently used context that is not in use (its tabs
 * are remembered and reopened on its next call). Each session keeps a spare context ready (an empty
 * context with one blank page, made after a call ends, under the session's armed request guard):
 * a conversation's new context is the spare when there is one, so it waits for neither a context
 * nor a page (a page's renderer takes seconds to start on a busy browser).
 */
import type { Browser, BrowserContext, BrowserWorker } from "@cloudflare/puppeteer";
import type { FleetLimits } from "../../config/browser-config";
import { BrowserError } from "../../errors";
import type { BlankPage } from "../browser-session";
import { armGuard, armSession } from "../context-guard";
import { type ContextRules, rulesKey } from "../websocket-guard";
import { type Clock, launchWithin, reconnectTo, retryTransient, TRANSIENT, withTimeout } from "./launch";
import type { PoolRecords } from "./pool-records";
import { WaitStats, type WaitSummary } from "./wait-stats";

/** How long a liveness probe of a kept session may take. */
const PROBE_TIMEOUT_MS = 3_000;
/** A session that answered this recently is not probed again (a call leases its context more than once). */
const ANSWERED_RECENTLY_MS = 2_000;
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

/** An empty context kept ready on a session. */
interface Spare extends BlankPage {
  context: BrowserContext;
  /** The WebSocket rules it was made under (their key): only a conversation with the same takes it. */
  rules: string;
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

interface LiveSession {
  id: string;
  browser: Browser;
  contexts: Map<string, BrowserContext>;
  /** Contexts being created on it. */
  reserved: number;
  /** Its spare context: being made, or ready (null: none). */
  spare: { ready: Spare | null } | null;
  /** When it last answered (a probe or a new context): a lease soon after needs no probe. */
  answeredAt: number;
}

interface Waiter {
  conv: string;
  resolve(lease: Lease): void;
  reject(err: unknown): void;
}

type Plan =
  | { kind: "context"; session: LiveSession }
  | { kind: "launch" }
  | { kind: "wait"; untilMs?: number };

/** The sessions, contexts and queue of one workspace's fleet. */
export class BrowserPool {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly busy = new Map<string, number>();
  private readonly lastUse = new Map<string, number>();
  private readonly pending = new Map<string, Promise<Lease>>();
  /** The rules each conversation's next context is created under. */
  private readonly rules = new Map<string, ContextRules | null>();
  /** The rules of the newest new context: spares are made under them (a workspace's conversations mostly share them). */
  private spareRules: ContextRules | null = null;
  private waiters: Waiter[] = [];
  private launching = 0;
  private restored: Promise<void> | null = null;
  /** A pump is due when the launch pace allows (on the pool's clock). */
  private pumpDue = false;
  /** Peak of sessions alive at once, and calls that had to wait (bench and tests read them). */
  peakSessions = 0;
  queuedCalls = 0;
  /** How long each new context took to get (queue, launch and creation). */
  private readonly waits = new WaitStats();

  constructor(private readonly deps: PoolDeps) {}

  /** The conversation's context: kept, or made (maybe after waiting its turn; `onQueued` is told the position). */
  async lease(
    conv: string,
    onQueued?: (position: number) => void,
    rules: ContextRules | null = null,
  ): Promise<Lease> {
    await this.restoreOnce();
    this.rules.set(conv, rules);
    this.lastUse.set(conv, this.deps.clock.now());
    const kept = this.find(conv);
    if (kept && (await this.alive(kept)))
      return { context: kept.contexts.get(conv)!, fresh: false, sessionId: kept.id };
    const inFlight = this.pending.get(conv);
    if (inFlight) return inFlight;
    const asked = this.deps.clock.now();
    const made = this.makeOrRetry(conv, onQueued)
      .then((lease) => {
        this.waits.note(this.deps.clock.now() - asked);
        return lease;
      })
      .finally(() => this.pending.delete(conv));
    this.pending.set(conv, made);
    return made;
  }

  /** After a restart: reconnects to the sessions it held (their guards armed) and finds their contexts again; once. */
  restoreOnce(): Promise<void> {
    this.restored ??= this.restore();
    return this.restored;
  }

  /** Marks a conversation's call in progress (its context is not taken from it meanwhile). */
  hold(conv: string): void {
    this.busy.set(conv, (this.busy.get(conv) ?? 0) + 1);
    this.lastUse.set(conv, this.deps.clock.now());
  }

  /** Ends a call; a waiting conversation may now get a slot. */
  unhold(conv: string): void {
    const n = (this.busy.get(conv) ?? 1) - 1;
    if (n > 0) this.busy.set(conv, n);
    else this.busy.delete(conv);
    this.lastUse.set(conv, this.deps.clock.now());
    this.tickAll();
    this.pump();
    for (const session of this.sessions.values()) this.keepSpare(session);
  }

  /** Closes a conversation's context (idle, deleted, or lost); its session closes when it was the last. */
  async drop(conv: string): Promise<void> {
    const session = this.find(conv);
    this.deps.records.removeContext(conv);
    if (!session) return;
    this.tick(session);
    const context = session.contexts.get(conv)!;
    session.contexts.delete(conv);
    await context.close().catch(() => {});
    await this.closeIfEmpty(session);
    this.pump();
  }

  /** Counts every session's time up to now (the daily total and the per-conversation meters). */
  tickAll(): void {
    for (const session of this.sessions.values()) this.tick(session);
  }

  /** Sessions alive now, contexts open, conversations waiting, launches ever, waits for a browser. */
  stats(): PoolStats {
    let contexts = 0;
    for (const s of this.sessions.values()) contexts += s.contexts.size;
    return {
      sessions: this.sessions.size,
      contexts,
      waiting: this.waiters.length,
      spares: [...this.sessions.values()].filter((s) => s.spare?.ready).length,
      queued: this.queuedCalls,
      launches: this.deps.records.launches(),
      peak: this.peakSessions,
      waits: this.waits.summary(),
    };
  }

  /** The session a conversation's context lives on (null when it has none). */
  sessionOf(conv: string): string | null {
    return this.find(conv)?.id ?? null;
  }

  /** Conversations with a context open. */
  openConversations(): string[] {
    return [...this.sessions.values()].flatMap((s) => [...s.contexts.keys()]);
  }

  /** Whether a kept session still answers (it may have ended without its disconnect seen yet); forgets it if not. */
  private async alive(session: LiveSession): Promise<boolean> {
    if (this.deps.clock.now() - session.answeredAt < ANSWERED_RECENTLY_MS) return true;
    const answered = await withTimeout(session.browser.version(), PROBE_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (answered) {
      session.answeredAt = this.deps.clock.now();
      return true;
    }
    if (this.sessions.get(session.id) === session) {
      this.tick(session);
      this.sessions.delete(session.id);
      this.deps.records.removeSession(session.id);
      session.browser.disconnect().catch(() => {});
    }
    return false;
  }

  private find(conv: string): LiveSession | null {
    for (const s of this.sessions.values()) if (s.contexts.has(conv) && s.browser.isConnected()) return s;
    return null;
  }

  /** Makes a context; once more when the browser died under it (a target closed while it was made). */
  private async makeOrRetry(conv: string, onQueued?: (position: number) => void): Promise<Lease> {
    try {
      return await this.make(conv, onQueued);
    } catch (err) {
      if (!TRANSIENT.test((err as Error).message ?? "")) throw err;
      return this.make(conv, onQueued);
    }
  }

  private async make(conv: string, onQueued?: (position: number) => void): Promise<Lease> {
    const { limits, records, clock } = this.deps;
    if (records.usedOn(clock.now()) >= limits.dailyMs) throw budgetError(limits.dailyMs);
    if (this.waiters.length === 0) {
      const plan = this.plan(conv);
      if (plan.kind !== "wait") return this.carry(conv, plan);
    }
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { conv, resolve, reject };
      // The wait is timed on the pool's clock (a seam for tests); a served waiter is no longer queued.
      clock.sleep(limits.queueTimeoutMs).then(() => {
        if (!this.waiters.includes(waiter)) return;
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(busyError(limits));
      });
      this.waiters.push(waiter);
      this.queuedCalls++;
      onQueued?.(this.waiters.length);
      this.pump();
    });
  }

  /** Serves waiting conversations, first come first served, while there is room. */
  private pump(): void {
    while (this.waiters.length > 0) {
      const head = this.waiters[0];
      const plan = this.plan(head.conv);
      if (plan.kind === "wait") {
        if (plan.untilMs !== undefined && !this.pumpDue) {
          this.pumpDue = true;
          this.deps.clock.sleep(plan.untilMs).then(() => {
            this.pumpDue = false;
            this.pump();
          });
        }
        return;
      }
      this.waiters.shift();
      this.carry(head.conv, plan).then(head.resolve, head.reject);
    }
  }

  /** Decides, without waiting, where a conversation's context can go; reserves the room it takes. */
  private plan(conv: string): Plan {
    const { limits, records, clock } = this.deps;
    const room = [...this.sessions.values()]
      .filter((s) => s.browser.isConnected() && s.contexts.size + s.reserved < limits.contextsPerSession)
      .sort(
        (a, b) =>
          Number(!!b.spare?.ready) - Number(!!a.spare?.ready) ||
          b.contexts.size + b.reserved - (a.contexts.size + a.reserved),
      )[0];
    if (room) {
      room.reserved++;
      return { kind: "context", session: room };
    }
    if (this.sessions.size + this.launching < limits.maxSessions) {
      const next = records.lastLaunchAt() + limits.launchIntervalMs;
      if (clock.now() < next) return { kind: "wait", untilMs: next - clock.now() };
      this.launching++;
      records.markLaunch(clock.now());
      return { kind: "launch" };
    }
    const victim = this.leastRecentlyUsedIdle(conv);
    if (!victim) return { kind: "wait" };
    const [session, victimConv] = victim;
    this.tick(session);
    const context = session.contexts.get(victimConv)!;
    session.contexts.delete(victimConv);
    records.removeContext(victimConv);
    context.close().catch(() => {});
    session.reserved++;
    return { kind: "context", session };
  }

  private leastRecentlyUsedIdle(except: string): [LiveSession, string] | null {
    let best: [LiveSession, string] | null = null;
    let bestAt = Number.POSITIVE_INFINITY;
    for (const s of this.sessions.values())
      for (const conv of s.contexts.keys()) {
        if (conv === except || this.busy.has(conv) || this.deps.pinned(conv)) continue;
        const at = this.lastUse.get(conv) ?? 0;
        if (at < bestAt) [best, bestAt] = [[s, conv], at];
      }
    return best;
  }

  /** Carries out a plan: a context on a session with room, or on a newly launched session. */
  private async carry(conv: string, plan: Plan): Promise<Lease> {
    let session: LiveSession;
    if (plan.kind === "context") session = plan.session;
    else {
      try {
        session = await this.launch();
      } finally {
        this.launching--;
        queueMicrotask(() => this.pump());
      }
      session.reserved++;
    }
    try {
      const rules = this.rules.get(conv) ?? null;
      this.spareRules = rules;
      const spare = this.takeSpare(session, rules);
      const context = spare?.context ?? (await this.createContext(session.browser, rules));
      session.answeredAt = this.deps.clock.now();
      // Time until now is the other contexts'; on a fresh session (its launch) the asking conversation's.
      const charged = session.contexts.size > 0 ? [...session.contexts.keys()] : [conv];
      this.deps.records.tick(session.id, charged, this.deps.clock.now());
      session.contexts.set(conv, context);
      this.deps.records.setContext({ conv, session_id: session.id, context_id: context.id ?? "" });
      const blank = spare ? { page: spare.page, cdp: spare.cdp } : undefined;
      return { context, fresh: true, sessionId: session.id, ...(blank ? { blank } : {}) };
    } finally {
      session.reserved--;
    }
  }

  /** Starts making a session's spare context when it has none (after a call: off any call's path). */
  private keepSpare(session: LiveSession): void {
    if (session.spare || this.deps.limits.sparesPerSession < 1 || !session.browser.isConnected()) return;
    const slot: { ready: Spare | null } = { ready: null };
    session.spare = slot;
    this.makeSpare(session, this.spareRules).then((spare) => {
      // A spare that failed (the browser went away meanwhile) is tried again after a later call.
      if (session.spare !== slot) spare?.context.close().catch(() => {});
      else if (!spare) session.spare = null;
      else if (spare.rules === rulesKey(this.spareRules)) slot.ready = spare;
      else {
        // Newer conversations' rules came meanwhile: made again under them.
        spare.context.close().catch(() => {});
        session.spare = null;
        this.keepSpare(session);
      }
    });
  }

  /** An empty context with a blank page, made under the session's armed guard (its requests are refused until a conversation takes it). */
  private async makeSpare(session: LiveSession, rules: ContextRules | null): Promise<Spare | null> {
    let context: BrowserContext | null = null;
    try {
      await armGuard(session.browser);
      context = await this.createContext(session.browser, rules);
      const page = await retryTransient(() => context!.newPage());
      const cdp = await page.createCDPSession();
      if (this.sessions.get(session.id) !== session) throw new Error("session gone");
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
  private takeSpare(session: LiveSession, rules: ContextRules | null): Spare | null {
    const spare = session.spare?.ready ?? null;
    if (!spare) return null;
    session.spare = null;
    if (spare.rules !== rulesKey(rules) || spare.page.isClosed() || !session.browser.isConnected()) {
      spare.context.close().catch(() => {});
      return null;
    }
    return spare;
  }

  /** A context under a conversation's WebSocket rules (../websocket-guard.ts); refused rules fail the lease (never a context without them). */
  private createContext(browser: Browser, rules: ContextRules | null): Promise<BrowserContext> {
    return rules ? browser.createBrowserContext(rules) : browser.createBrowserContext();
  }

  private async launch(): Promise<LiveSession> {
    const { limits, clock, records } = this.deps;
    const keepAlive = Math.min(Math.max(limits.idleMs, 60_000), 600_000);
    const browser = await launchWithin(
      this.deps.binding(),
      keepAlive,
      clock.now() + limits.queueTimeoutMs,
      clock,
    );
    records.addSession(browser.sessionId(), clock.now());
    return this.adopt(browser);
  }

  private adopt(browser: Browser): LiveSession {
    const session: LiveSession = {
      id: browser.sessionId(),
      browser,
      contexts: new Map(),
      reserved: 0,
      spare: null,
      answeredAt: this.deps.clock.now(),
    };
    this.sessions.set(session.id, session);
    this.peakSessions = Math.max(this.peakSessions, this.sessions.size);
    browser.on("disconnected", () => {
      if (this.sessions.get(session.id) !== session) return;
      this.tick(session);
      this.sessions.delete(session.id);
      this.deps.records.removeSession(session.id);
      this.pump();
    });
    return session;
  }

  private tick(session: LiveSession): void {
    this.deps.records.tick(session.id, [...session.contexts.keys()], this.deps.clock.now());
  }

  private async closeIfEmpty(session: LiveSession): Promise<void> {
    if (session.contexts.size > 0 || session.reserved > 0 || this.waiters.length > 0) return;
    this.tick(session);
    this.sessions.delete(session.id);
    session.spare = null;
    this.deps.records.removeSession(session.id);
    await session.browser.close().catch(() => {});
  }

  private reconnect(sessionId: string): Promise<Browser | null> {
    return reconnectTo(this.deps.binding(), sessionId);
  }

  /** After a restart: reconnects to the sessions it held and finds their contexts again. */
  private async restore(): Promise<void> {
    const { records } = this.deps;
    const contexts = records.contexts();
    for (const row of records.sessions()) {
      const browser = await this.reconnect(row.session_id);
      if (!browser) {
        records.tick(row.session_id, [], this.deps.clock.now());
        records.removeSession(row.session_id);
        continue;
      }
      const session = this.adopt(browser);
      await armSession(browser).catch(() => {});
      const byId = new Map(browser.browserContexts().map((c) => [c.id, c]));
      for (const ctx of contexts.filter((c) => c.session_id === row.session_id)) {
        const context = byId.get(ctx.context_id);
        byId.delete(ctx.context_id);
        if (context) session.contexts.set(ctx.conv, context);
        else records.removeContext(ctx.conv);
      }
      // A context no conversation holds was the old connection's spare: a new one is made after a call.
      for (const [id, context] of byId) if (id) await context.close().catch(() => {});
    }
  }
}

function busyError(limits: FleetLimits): BrowserError {
  return new BrowserError(
    "browser_busy",
    `Every browser of this workspace is in use (${limits.maxSessions} browsers × ${limits.contextsPerSession} conversations) and none freed up within ${Math.round(limits.queueTimeoutMs / 1000)} s. Try the browser again later, or go on without it.`,
  );
}

function budgetError(dailyMs: number): BrowserError {
  return new BrowserError(
    "browser_budget",
    `This workspace has used its ${Math.round(dailyMs / 60_000)} browser minutes for today (BROWSER_DAILY_MINUTES); the browser is available again after 00:00 UTC. Go on without it.`,
  );
}
