/**
 * The browser sessions a fleet holds (one connection each) and the conversations' contexts on
 * them: launching, reconnecting after a restart, the liveness probe, the browser-time meters and
 * closing a session left empty. Who gets a context where is the pool's (./browser-pool.ts).
 */
import type { Browser, BrowserContext, BrowserWorker } from "@cloudflare/puppeteer";
import type { FleetLimits } from "../../config/browser-config";
import { armSession } from "../context-guard";
import { type Clock, launchWithin, reconnectTo, withTimeout } from "./launch";
import type { PoolRecords } from "./pool-records";
import type { SpareSlot } from "./spare-context";

/** How long a liveness probe of a kept session may take. */
const PROBE_TIMEOUT_MS = 3_000;
/** A session that answered this recently is not probed again (a call leases its context more than once). */
const ANSWERED_RECENTLY_MS = 2_000;
/** How long a session whose pages died under a call gets to show its disconnect before it is probed. */
const GONE_GRACE_MS = 1_000;

/** One browser session the fleet holds. */
export interface LiveSession {
  id: string;
  browser: Browser;
  contexts: Map<string, BrowserContext>;
  /** Contexts being created on it. */
  reserved: number;
  /** Its spare context: being made, or ready (null: none). */
  spare: SpareSlot;
  /** When it last answered (a probe or a new context): a lease soon after needs no probe. */
  answeredAt: number;
  /** Its browser may be closing (see `LiveSessions.suspect`): no new context goes on it meanwhile. */
  suspect?: boolean;
}

/** What the sessions need from the pool. */
export interface SessionDeps {
  binding(): BrowserWorker;
  records: PoolRecords;
  limits: FleetLimits;
  clock: Clock;
  /** A session went away (its disconnect was seen) or was cleared of suspicion: waiting conversations may get room. */
  roomChanged(): void;
}

/** The sessions alive now, by id. */
export class LiveSessions {
  private readonly byId = new Map<string, LiveSession>();
  /** Most sessions alive at once since the object started. */
  peak = 0;
  /** Probes of sessions under suspicion (see `suspect`). */
  private readonly checks = new Set<Promise<void>>();

  constructor(private readonly deps: SessionDeps) {}

  get size(): number {
    return this.byId.size;
  }

  values(): IterableIterator<LiveSession> {
    return this.byId.values();
  }

  /** Sessions alive now, contexts open on them, sessions with a spare ready, most sessions alive at once. */
  counts(): { sessions: number; contexts: number; spares: number; peak: number } {
    const all = [...this.byId.values()];
    const contexts = all.reduce((n, s) => n + s.contexts.size, 0);
    return {
      sessions: all.length,
      contexts,
      spares: all.filter((s) => s.spare?.ready).length,
      peak: this.peak,
    };
  }

  /** Conversations with a context open. */
  conversations(): string[] {
    return [...this.byId.values()].flatMap((s) => [...s.contexts.keys()]);
  }

  /** Whether the session is still one of these (not closed or lost meanwhile). */
  holds(session: LiveSession): boolean {
    return this.byId.get(session.id) === session;
  }

  /** The session a conversation's context lives on, or null. */
  find(conv: string): LiveSession | null {
    for (const s of this.byId.values()) if (s.contexts.has(conv) && s.browser.isConnected()) return s;
    return null;
  }

  /** Whether a kept session still answers (it may have ended without its disconnect seen yet); forgets it if not. */
  async alive(session: LiveSession): Promise<boolean> {
    if (this.deps.clock.now() - session.answeredAt < ANSWERED_RECENTLY_MS) return true;
    const answered = await withTimeout(session.browser.version(), PROBE_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (answered) {
      session.answeredAt = this.deps.clock.now();
      return true;
    }
    if (this.holds(session)) {
      this.forget(session);
      session.browser.disconnect().catch(() => {});
    }
    return false;
  }

  /**
   * A conversation's browser died under a call on this session: the whole browser may be closing,
   * still answering a little while before its disconnect is seen (a context made on it then dies
   * with it, and the conversation is rebuilt twice). After a grace time it is probed: gone, or
   * alive (only the conversation's pages had died). New contexts wait for that (`settled`).
   */
  suspect(session: LiveSession): void {
    session.suspect = true;
    const check: Promise<void> = (async () => {
      await this.deps.clock.sleep(GONE_GRACE_MS);
      if (!this.holds(session)) return;
      session.answeredAt = Number.NEGATIVE_INFINITY;
      await this.alive(session);
    })().finally(() => {
      session.suspect = false;
      this.checks.delete(check);
      this.deps.roomChanged(); // its room (or its absence) is known now: waiting conversations are served
    });
    this.checks.add(check);
  }

  /** Resolves once no session is under suspicion. */
  async settled(): Promise<void> {
    while (this.checks.size > 0) await Promise.all(this.checks);
  }

  /** Launches a new session (within the queue's time-out, retrying the platform's refusals). */
  async launch(): Promise<LiveSession> {
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

  /** Counts a session's time up to now (the daily total and its conversations' meters). */
  tick(session: LiveSession): void {
    this.deps.records.tick(session.id, [...session.contexts.keys()], this.deps.clock.now());
  }

  tickAll(): void {
    for (const session of this.byId.values()) this.tick(session);
  }

  /** Closes a conversation's context on a session (its time counted up to now); its slot is free at once. */
  closeContext(session: LiveSession, conv: string): Promise<void> {
    this.tick(session);
    const context = session.contexts.get(conv)!;
    session.contexts.delete(conv);
    this.deps.records.removeContext(conv);
    return context.close().catch(() => {});
  }

  /** Closes a session no context is on or being made on (else leaves it open). */
  async closeIfEmpty(session: LiveSession): Promise<void> {
    if (session.contexts.size > 0 || session.reserved > 0) return;
    this.forget(session);
    session.spare = null;
    await session.browser.close().catch(() => {});
  }

  /** After a restart: reconnects to the sessions it held (their guards armed) and finds their contexts again. */
  async restore(): Promise<void> {
    const { records, clock } = this.deps;
    const contexts = records.contexts();
    for (const row of records.sessions()) {
      const browser = await reconnectTo(this.deps.binding(), row.session_id);
      if (!browser) {
        records.tick(row.session_id, [], clock.now());
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

  private adopt(browser: Browser): LiveSession {
    const session: LiveSession = {
      id: browser.sessionId(),
      browser,
      contexts: new Map(),
      reserved: 0,
      spare: null,
      answeredAt: this.deps.clock.now(),
    };
    this.byId.set(session.id, session);
    this.peak = Math.max(this.peak, this.byId.size);
    browser.on("disconnected", () => {
      if (!this.holds(session)) return;
      this.forget(session);
      this.deps.roomChanged();
    });
    return session;
  }

  /** Stops holding a session: its time so far is counted, its record removed. */
  private forget(session: LiveSession): void {
    this.tick(session);
    this.byId.delete(session.id);
    this.deps.records.removeSession(session.id);
  }
}
