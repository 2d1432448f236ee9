/**
 * The fleet's conversations: one {@link ConversationBrowser} per conversation that browses, each
 * on a context leased from the pool, built from the settings the conversation sends with each
 * call (kept, so the alarm can close an idle context and save its profile).
 */
import { recordingConfig } from "../engine/config/recording-config";
import { BrowserRecording } from "../engine/recording/browser-recording";
import { RecordingStore } from "../engine/recording/recording-store";
import type { BrowserWorker } from "@cloudflare/puppeteer";
import { conversationStub } from "../addresses/conversation";
import { workspaceStub } from "../addresses/workspace";
import type { ProfileSaved } from "../../schemas/browser-api";
import { ConversationBrowser } from "../engine/browser/conversation-browser";
import { BrowserPool } from "../engine/browser/fleet/browser-pool";
import type { FleetConversation } from "../engine/browser/fleet/fleet-wire";
import type { Clock } from "../engine/browser/fleet/launch";
import { PoolRecords } from "../engine/browser/fleet/pool-records";
import type { ProfileState } from "../engine/browser/profile-state";
import {
  browserConfig,
  browserFilesConfig,
  type FleetLimits,
  liveViewConfig,
} from "../engine/config/browser-config";
import type { RpcResult } from "../engine/rpc-result";

/** What the fleet's conversations need from the object. */
export interface FleetParts {
  env: Env;
  sql: SqlStorage;
  limits: FleetLimits;
  binding(): BrowserWorker;
  clock(): Clock;
  /** Asks for the object's alarm no later than `at`. */
  wakeBy(at: number): Promise<void>;
}

/** The browsers of one workspace's conversations and the pool they share. */
export class FleetBrowsers {
  readonly records: PoolRecords;
  readonly pool: BrowserPool;
  private readonly browsers = new Map<string, ConversationBrowser>();
  private readonly queued = new Map<string, (position: number) => void>();

  constructor(private readonly p: FleetParts) {
    this.records = new PoolRecords(p.sql);
    this.pool = new BrowserPool({
      binding: p.binding,
      records: this.records,
      limits: p.limits,
      clock: {
        now: () => p.clock().now(),
        sleep: (ms) => p.clock().sleep(ms),
      },
      pinned: (conv) => this.browsers.get(conv)?.pinned() ?? false,
    });
  }

  /** The conversation's browser, its settings updated from the call. */
  async of(conv: FleetConversation): Promise<ConversationBrowser> {
    this.records.setRef(conv.id, conv);
    const browser = this.browsers.get(conv.id) ?? this.build(conv);
    await browser.setWorkspaceDomains(conv.workspaceDomains);
    return browser;
  }

  /** The browser of a conversation the fleet has seen, or null. */
  known(convId: string): ConversationBrowser | null {
    const existing = this.browsers.get(convId);
    if (existing) return existing;
    const ref = this.records.ref<FleetConversation>(convId);
    return ref ? this.build(ref) : null;
  }

  /**
   * Runs one call of a conversation: its context is held (not taken) meanwhile, and until the work
   * the call left for after its answer (the state save) is done; queue notices go to `onQueued`.
   */
  async holding<T>(
    convId: string,
    work: () => Promise<T>,
    onQueued?: (position: number) => void,
  ): Promise<T> {
    this.pool.hold(convId);
    if (onQueued) this.queued.set(convId, onQueued);
    try {
      return await work();
    } finally {
      this.queued.delete(convId);
      const afterwards = this.browsers.get(convId)?.drained() ?? Promise.resolve();
      afterwards.finally(() => this.pool.unhold(convId));
    }
  }

  /**
   * After a restart (any wake of the object): reconnects to the kept sessions with their request
   * guards armed, then puts each open context back under its conversation's rules.
   */
  async rearm(): Promise<void> {
    await this.pool.restoreOnce();
    for (const convId of this.pool.openConversations()) {
      const browser = this.known(convId);
      if (!browser) await this.pool.drop(convId);
      else await browser.rearm().catch(() => {});
    }
  }

  /** Closes the contexts idle past the limit; the next deadline, or null when none is open. */
  async closeIdle(): Promise<number | null> {
    let next: number | null = null;
    for (const convId of this.pool.openConversations()) {
      const browser = this.known(convId);
      if (!browser) {
        await this.pool.drop(convId);
        continue;
      }
      await browser.closeIfIdle();
      const deadline = this.pool.sessionOf(convId) ? browser.idleDeadline() : null;
      if (deadline !== null) next = Math.min(next ?? deadline, deadline);
    }
    this.pool.tickAll();
    return next;
  }

  /**
   * Sends each conversation the browser time metered since its last call (the idle time before
   * its context closed would otherwise wait for a next call that may never come); time whose
   * report fails stays metered for the next one.
   */
  async reportMeters(send: (conv: FleetConversation, ms: number) => Promise<void>): Promise<void> {
    this.pool.tickAll();
    for (const convId of this.records.meteredConvs()) {
      const conv = this.records.ref<FleetConversation>(convId);
      const ms = this.records.drainMeter(convId);
      if (!conv) continue;
      await send(conv, ms).catch(() => this.records.addToMeter(convId, ms));
    }
  }

  /** Closes a conversation's context now (its unattended run ended) unless a person holds it, so its browser time stops. */
  async release(convId: string): Promise<void> {
    if (!this.pool.sessionOf(convId)) return;
    await this.known(convId)
      ?.closeNow()
      .catch(() => false);
    this.pool.tickAll();
  }

  /** Forgets a deleted conversation: its context is closed (profile saved), its tabs dropped. */
  async forget(convId: string): Promise<void> {
    const browser = this.known(convId);
    await browser?.shutdown().catch(() => {});
    await this.pool.drop(convId);
    this.browsers.delete(convId);
    this.records.forgetConv(convId);
  }

  /** Where a recorded conversation's tabs go: R2, under the conversation, kept RECORDING_TTL_DAYS. */
  private recording(conv: FleetConversation): BrowserRecording {
    const config = recordingConfig(this.p.env);
    const store = new RecordingStore(this.p.env.FILES, conv.workspaceId, conv.id, config.ttlMs);
    return new BrowserRecording(store, config.maxBytes);
  }

  private build(conv: FleetConversation): ConversationBrowser {
    const workspace = () => workspaceStub(this.p.env, conv.workspaceId);
    const options = browserConfig(this.p.env, conv.allowedDomains ?? undefined);
    // As of the conversation's last call (each call brings the current list).
    options.policy.workspaceDomains = conv.workspaceDomains ?? null;
    const browser = new ConversationBrowser({
      conversationId: conv.id,
      source: {
        lease: (rules) => this.pool.lease(conv.id, this.queued.get(conv.id), rules),
        drop: (lost) => this.pool.drop(conv.id, lost),
      },
      sql: this.p.sql,
      options,
      secrets: { read: (name) => workspace().readSecret(name) },
      publishTabs: () => {},
      wakeBy: (at) => this.p.wakeBy(at),
      live: liveViewConfig(this.p.env),
      files: browserFilesConfig(this.p.env),
      // A download no tool call caused goes to the conversation's files all the same.
      outsideDownloads: (file) =>
        conversationStub(this.p.env, conv.workspaceId, conv.id).saveBrowserDownload(file) as Promise<string>,
      profile: conv.profile
        ? {
            name: conv.profile,
            load: () => workspace().loadProfile(conv.profile!) as Promise<ProfileState | null>,
            save: (snapshot, sites) =>
              workspace().saveProfile(conv.profile!, snapshot, sites) as Promise<RpcResult<ProfileSaved>>,
          }
        : undefined,
      ...(conv.recording ? { recording: this.recording(conv) } : {}),
    });
    this.browsers.set(conv.id, browser);
    return browser;
  }
}
