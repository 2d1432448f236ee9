/**
 * One workspace's browser fleet = one Durable Object. It owns the workspace's Browser Rendering
 * sessions (a session takes one connection at a time, so the connection lives here) and serves
 * many conversations from each, every conversation in its own browser context. This class is
 * wiring: the pool and its limits (../engine/browser/fleet/), the conversations' browsers
 * (fleet-browsers.ts), a tool call (fleet-tool-call.ts) and the live view's controls
 * (fleet-controls.ts). Its alarm closes idle contexts and, with the last one, their session.
 */
import { DurableObject } from "cloudflare:workers";
import type { BrowserWorker } from "@cloudflare/puppeteer";
import { conversationStub } from "../addresses/conversation";
import { workspaceStub } from "../addresses/workspace";
import type { BrowserInput, ProfileSaved, TabList } from "../../schemas/browser-api";
import type {
  FleetCall,
  FleetCallbacks,
  FleetConversation,
  ToolEnvelope,
} from "../engine/browser/fleet/fleet-wire";
import type { PoolStats } from "../engine/browser/fleet/browser-pool";
import { type Clock, realClock } from "../engine/browser/fleet/launch";
import { type FleetLimits, fleetLimits } from "../engine/config/browser-config";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { migrate } from "../engine/store/migrations";
import { BROWSER_FLEET_MIGRATIONS } from "./browser-fleet-schema";
import { FleetBrowsers } from "./fleet-browsers";
import * as controls from "./fleet-controls";
import { asData, runFleetTool } from "./fleet-tool-call";

/** The fleet's counters, for the usage route (GET /v1/usage/browsers), tests and the bench. */
export interface FleetStats extends PoolStats {
  used_today_ms: number;
}

/** A Durable Object holding one workspace's browsers. */
export class BrowserFleetObject extends DurableObject<Env> {
  /** The Browser Rendering binding (a seam: tests wrap it to inject the platform's refusals). */
  binding: BrowserWorker;
  /** Time and waiting (a seam for tests). */
  clock: Clock = realClock;
  /** The BROWSER_* limits, read once (the pool reads them at each decision: a seam for tests). */
  readonly limits: FleetLimits;
  private readonly fleet: FleetBrowsers;
  /** The kept sessions' request guards re-armed after a (re)start (see FleetBrowsers.rearm). */
  private readonly rearmed: Promise<void>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrate(ctx.storage, BROWSER_FLEET_MIGRATIONS);
    this.binding = env.BROWSER;
    this.limits = fleetLimits(env);
    this.fleet = new FleetBrowsers({
      env,
      sql: ctx.storage.sql,
      limits: this.limits,
      binding: () => this.binding,
      clock: () => this.clock,
      wakeBy: async (at) => {
        const current = await ctx.storage.getAlarm();
        if (current === null || current > at) await ctx.storage.setAlarm(at);
      },
    });
    // The pages of kept sessions ran unguarded since the old connection ended: guard them at once.
    this.rearmed = this.fleet.rearm().catch(() => {});
  }

  /** Runs one browser tool of a conversation (arguments already validated by the conversation). */
  async browserTool(
    conv: FleetConversation,
    name: string,
    args: unknown,
    call: FleetCall,
    callbacks: FleetCallbacks,
  ): Promise<ToolEnvelope> {
    const browser = await this.fleet.of(conv);
    const outcome = await this.fleet.holding(
      conv.id,
      () => runFleetTool(browser, conv, name, args, call, callbacks, this.secrets(conv)),
      callbacks.queued ? (position) => callbacks.queued?.(position) : undefined,
    );
    return {
      ...outcome,
      tabs: controls.publicTabs(browser),
      browserMs: this.drain(conv.id),
      typedSecrets: browser.store.typedSecrets(),
      typedNow: browser.takeTyped(),
    };
  }

  /**
   * The id of the named tab, else of the active one, held for a person until `holdUntil` (a
   * take-over: the context is neither closed for idleness nor taken meanwhile); or the error as data.
   */
  async resolveTab(
    conv: FleetConversation,
    tabId: number | undefined,
    holdUntil: number,
  ): Promise<RpcResult<{ tab_id: number }>> {
    const browser = await this.fleet.of(conv);
    try {
      const { tab } = await this.fleet.holding(conv.id, () =>
        browser.exclusive(() => browser.resolve(tabId)),
      );
      browser.store.pinUntil(holdUntil);
      return ok({ tab_id: tab.id });
    } catch (err) {
      const e = asData(err);
      return fail(422, e.code ?? "tool_failed", e.message);
    }
  }

  /** The conversation's tabs and browser facts, for the live view. */
  async tabs(conv: FleetConversation): Promise<RpcResult<TabList>> {
    return controls.tabList(await this.fleet.of(conv));
  }

  /** A PNG of one tab. */
  async tabScreenshot(conv: FleetConversation, tabId: number): Promise<RpcResult<Uint8Array>> {
    const browser = await this.fleet.of(conv);
    return this.fleet.holding(conv.id, () => controls.tabScreenshot(browser, tabId));
  }

  /** Forwards a person's input to a tab as trusted input. */
  async tabInput(
    conv: FleetConversation,
    tabId: number,
    input: BrowserInput,
  ): Promise<RpcResult<{ ok: true }>> {
    const browser = await this.fleet.of(conv);
    return this.fleet.holding(conv.id, () => controls.tabInput(browser, tabId, input));
  }

  /** Saves the conversation's cookies and local storage into its browser profile. */
  async saveBrowser(conv: FleetConversation): Promise<RpcResult<ProfileSaved>> {
    const browser = await this.fleet.of(conv);
    return this.fleet.holding(conv.id, () => controls.saveBrowser(browser));
  }

  /** A tab's current URL and title when a take-over is done (the hold on the context ends), or null. */
  async tabFacts(conv: FleetConversation, tabId: number): Promise<{ url: string; title: string } | null> {
    const browser = await this.fleet.of(conv);
    browser.store.pinUntil(0);
    const facts = await this.fleet.holding(conv.id, () => browser.tabFacts(tabId));
    await browser.settleNow();
    return facts;
  }

  /** A tab's live view as an SSE response (or the error in the API's one shape). */
  async liveView(conv: FleetConversation, tabId: number): Promise<Response> {
    const browser = await this.fleet.of(conv);
    return this.fleet.holding(conv.id, () => controls.liveViewResponse(browser, tabId));
  }

  /** The conversation was deleted: its context closes (profile saved) and its tabs are forgotten. */
  forget(convId: string): Promise<void> {
    return this.fleet.forget(convId);
  }

  /** Browser time used by a conversation since its last report, in ms (reset by the read). */
  drain(convId: string): number {
    this.fleet.pool.tickAll();
    return this.fleet.records.drainMeter(convId);
  }

  /**
   * A conversation's unattended run ended: the browser time it used up to now, in ms (reset by
   * the read); its context is closed after the answer (state and profile saved), off the run's
   * settling, unless a person holds it.
   */
  release(convId: string): number {
    const ms = this.drain(convId);
    this.ctx.waitUntil(this.rearmed.then(() => this.fleet.release(convId)));
    return ms;
  }

  /** Sessions, contexts and the queue now; launches ever; today's browser time. */
  stats(): FleetStats {
    this.fleet.pool.tickAll();
    return { ...this.fleet.pool.stats(), used_today_ms: this.fleet.records.usedOn(this.clock.now()) };
  }

  /** Closes idle contexts (and empty sessions), reports their time; re-arms for the next deadline. */
  async alarm(): Promise<void> {
    await this.rearmed;
    const next = await this.fleet.closeIdle();
    await this.fleet.reportMeters((conv, ms) =>
      conversationStub(this.env, conv.workspaceId, conv.id).browserTimeUsed(ms),
    );
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1_000));
  }

  private secrets(conv: FleetConversation) {
    return { read: (name: string) => workspaceStub(this.env, conv.workspaceId).readSecret(name) };
  }
}
