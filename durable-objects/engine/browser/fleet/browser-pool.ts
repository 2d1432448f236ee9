/**
 * The fleet's browsers: at most `maxSessions` sessions (one connection each, held here), each
 * serving up to `contextsPerSession` conversations in isolated browser contexts. A conversation
 * that finds no room waits in a first-come-first-served queue (told its position) until a context
 * frees, a launch is allowed, or its wait times out (`browser_busy`). New browsers are launched no
 * faster than `launchIntervalMs` apart and not once the day's browser time is used up. A waiting
 * conversation may take the slot of the least recently used context that is not in use (its tabs
 * are remembered and reopened on its next call). A new context is the session's spare when it has
 * one ready (./spare-context.ts); the sessions themselves are ./live-sessions.ts; the choice of
 * session for a new context is ./pool-choice.ts.
 */
import type { ContextRules } from "../websocket-guard";
import { TRANSIENT } from "./launch";
import { type LiveSession, LiveSessions } from "./live-sessions";
import { leastRecentlyUsedIdle, sessionWithRoom } from "./pool-choice";
import { budgetError, busyError } from "./pool-errors";
import type { Lease, PoolDeps, PoolStats } from "./pool-types";
import { createContext, keepSpare, takeSpare } from "./spare-context";
import { WaitStats } from "./wait-stats";

export type { Lease, PoolDeps, PoolStats } from "./pool-types";

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
  /** The sessions alive (tests read their spares). */
  private readonly sessions: LiveSessions;
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
  /** Calls that had to wait (bench and tests read them). */
  queuedCalls = 0;
  /** How long each new context took to get (queue, launch and creation). */
  private readonly waits = new WaitStats();

  constructor(private readonly deps: PoolDeps) {
    this.sessions = new LiveSessions({ ...deps, roomChanged: () => this.pump() });
  }

  /** The conversation's context: kept, or made (maybe after waiting its turn; `onQueued` is told the position). */
  async lease(
    conv: string,
    onQueued?: (position: number) => void,
    rules: ContextRules | null = null,
  ): Promise<Lease> {
    await this.restoreOnce();
    this.rules.set(conv, rules);
    this.lastUse.set(conv, this.deps.clock.now());
    const kept = this.sessions.find(conv);
    if (kept && (await this.sessions.alive(kept)))
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
    this.restored ??= this.sessions.restore();
    return this.restored;
  }

  /** Marks a conversation's call in progress (its context is not taken from it meanwhile). */
  hold(conv: string): void {
    this.busy.set(conv, (this.busy.get(conv) ?? 0) + 1);
    this.lastUse.set(conv, this.deps.clock.now());
  }

  /** Ends a call; a waiting conversation may now get a slot; each session's spare is made if missing. */
  unhold(conv: string): void {
    const n = (this.busy.get(conv) ?? 1) - 1;
    if (n > 0) this.busy.set(conv, n);
    else this.busy.delete(conv);
    this.lastUse.set(conv, this.deps.clock.now());
    this.sessions.tickAll();
    this.pump();
    if (this.deps.limits.sparesPerSession < 1) return;
    for (const session of this.sessions.values())
      keepSpare(
        session,
        () => this.spareRules,
        () => this.sessions.holds(session),
      );
  }

  /**
   * Closes a conversation's context (idle, deleted, or `lost`: its browser died under a call, and
   * its session is suspected until probed); its session closes when it was the last.
   */
  async drop(conv: string, lost = false): Promise<void> {
    const session = this.sessions.find(conv);
    this.deps.records.removeContext(conv);
    if (!session) return;
    await this.sessions.closeContext(session, conv);
    if (lost) this.sessions.suspect(session);
    if (this.waiters.length === 0) await this.sessions.closeIfEmpty(session);
    this.pump();
  }

  /** Counts every session's time up to now (the daily total and the per-conversation meters). */
  tickAll(): void {
    this.sessions.tickAll();
  }

  /** Sessions alive now, contexts open, conversations waiting, launches ever, waits for a browser. */
  stats(): PoolStats {
    return {
      ...this.sessions.counts(),
      waiting: this.waiters.length,
      queued: this.queuedCalls,
      launches: this.deps.records.launches(),
      waits: this.waits.summary(),
    };
  }

  /** The session a conversation's context lives on (null when it has none). */
  sessionOf(conv: string): string | null {
    return this.sessions.find(conv)?.id ?? null;
  }

  /** Conversations with a context open. */
  openConversations(): string[] {
    return this.sessions.conversations();
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
    await this.sessions.settled(); // a session that may be closing gets no new context
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
    const room = sessionWithRoom(this.sessions.values(), limits.contextsPerSession);
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
    this.sessions.closeContext(session, victimConv); // not waited for: its slot is free at once
    session.reserved++;
    return { kind: "context", session };
  }

  private leastRecentlyUsedIdle(except: string): [LiveSession, string] | null {
    const mayTake = (conv: string) => !this.busy.has(conv) && !this.deps.pinned(conv);
    return leastRecentlyUsedIdle(this.sessions.values(), except, mayTake, this.lastUse);
  }

  /** Carries out a plan: a context on a session with room, or on a newly launched session. */
  private async carry(conv: string, plan: Plan): Promise<Lease> {
    let session: LiveSession;
    if (plan.kind === "context") session = plan.session;
    else {
      try {
        session = await this.sessions.launch();
      } finally {
        this.launching--;
        queueMicrotask(() => this.pump());
      }
      session.reserved++;
    }
    try {
      const rules = this.rules.get(conv) ?? null;
      this.spareRules = rules;
      const spare = takeSpare(session, rules);
      const context = spare?.context ?? (await createContext(session.browser, rules));
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
}
