/**
 * One Durable Object per workspace: it owns the workspace's SQLite and lifecycle and hands each
 * concern to its module. Every workspace-scoped lookup starts here. It holds:
 * - the workspace record (id, name): here;
 * - API keys (secret and publishable, hashed) and widget visitors: workspace-keys.ts;
 * - the index of its conversations and of its jobs: workspace-index.ts;
 * - settings (agent defaults, search engine and keys, widget look, policy, cost): workspace-settings.ts;
 * - secrets, sealed at rest: workspace-secrets.ts;
 * - HTTP tools: workspace-http-tools.ts;
 * - browser profiles (cookies and local storage, sealed at rest): browser-profiles.ts;
 * - the file ledger (sizes and quota of its files in R2): engine/files/file-ledger.ts;
 * - in the retired `__cors__` instance only, the old global CORS list, copied out by OriginRegistry
 *   and drained by the Cron Trigger: legacy-cors.ts.
 * Widget rate limits are the platform's Rate Limiting bindings; CORS origins live in OriginRegistry.
 */
import { DurableObject } from "cloudflare:workers";
import type { AgentSettings, WidgetSettings } from "../../shared/agent-settings";
import type { ProfileInfo, ProfileSaved } from "../../shared/browser-api";
import type { CostSettings } from "../../shared/cost";
import type { StoredHttpTool } from "../../shared/http-tools";
import type { AgentPolicy, SearchSettings, SettingsUpdate, SettingsView } from "../../shared/settings";
import type { UsageEntry, UsageReport } from "../../shared/usage";
import type { ProfileState } from "../engine/browser/profile-state";
import { type DirStats, FileLedger, type FileLimits, type Reservation } from "../engine/files/file-ledger";
import type { RpcResult } from "../engine/rpc-result";
import { secretKey } from "../engine/secret-box";
import { BrowserProfiles } from "./browser-profiles";
import { forgetLegacyOrigin, type LegacyOrigin, legacyOriginRefs, legacyOriginsPage } from "./legacy-cors";
import { UsageLedger, utcDay } from "./usage-ledger";
import { HttpToolStore } from "./workspace-http-tools";
import { type ConversationEntry, WorkspaceIndex } from "./workspace-index";
import { type KeyRecord, KeyStore, type KeyType, type VisitorRecord, type WidgetKey } from "./workspace-keys";
import { SecretStore } from "./workspace-secrets";
import { WorkspaceSettings } from "./workspace-settings";

/** A workspace as the API shows it. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: number;
}

/** The Durable Object of one workspace. */
export class WorkspaceObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly keys: KeyStore;
  private readonly index: WorkspaceIndex;
  private readonly settings: WorkspaceSettings;
  private readonly usage: UsageLedger;
  private readonly secrets: SecretStore;
  private readonly tools: HttpToolStore;
  private readonly files: FileLedger;
  private readonly profiles: BrowserProfiles;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS workspace (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    this.keys = new KeyStore(this.sql);
    this.index = new WorkspaceIndex(this.sql);
    this.settings = new WorkspaceSettings(this.sql);
    this.usage = new UsageLedger(this.sql);
    this.secrets = new SecretStore(
      this.sql,
      () => secretKey(env),
      () => this.get()?.id ?? ctx.id.toString(),
    );
    this.tools = new HttpToolStore(this.sql);
    this.files = new FileLedger(this.sql);
    this.profiles = new BrowserProfiles(
      this.sql,
      () => secretKey(env),
      (name) => `${this.get()?.id ?? ctx.id.toString()}/browser-profile/${name}`,
    );
  }

  // ---- the workspace record ----

  /** Creates the workspace record (idempotent). */
  init(id: string, name: string): WorkspaceRecord {
    const existing = this.get();
    if (existing) return existing;
    const created_at = Date.now();
    this.sql.exec("INSERT INTO workspace (id, name, created_at) VALUES (?, ?, ?)", id, name, created_at);
    return { id, name, created_at };
  }

  /** The workspace record, or null before `init`. */
  get(): WorkspaceRecord | null {
    return (
      this.sql
        .exec<{ id: string; name: string; created_at: number }>("SELECT * FROM workspace")
        .toArray()[0] ?? null
    );
  }

  // ---- keys and widget visitors (workspace-keys.ts) ----

  /** Issues a key (secret by default); only its hash is kept. */
  async createKey(
    name: string,
    type: KeyType = "secret",
    allowedOrigins: string[] = [],
  ): Promise<(KeyRecord & { key: string }) | null> {
    const ws = this.get();
    return ws ? this.keys.create(ws.id, name, type, allowedOrigins) : null;
  }

  /** Revokes a key; returns the revoked key so callers can update the origin registry. */
  deleteKey(keyId: string): KeyRecord | null {
    return this.keys.delete(keyId);
  }

  listKeys(): KeyRecord[] {
    return this.keys.list();
  }

  /** Renames a key or replaces its allowed origins. */
  updateKey(keyId: string, patch: { name?: string; allowed_origins?: string[] }): KeyRecord | null {
    return this.keys.update(keyId, patch);
  }

  /** The secret key id for a key hash, or null (publishable keys never pass here). */
  verifyKeyHash(hash: string): string | null {
    const key = this.keys.byHash(hash);
    return key?.type === "secret" ? key.id : null;
  }

  /** A publishable key by hash and, when asked, a visitor by token hash: the widget's one lookup. */
  widgetLookup(
    keyHash: string,
    visitorHash: string | null,
  ): { key: WidgetKey | null; visitor: VisitorRecord | null } {
    return {
      key: this.keys.widgetKey(keyHash),
      visitor: visitorHash ? this.keys.visitor(visitorHash) : null,
    };
  }

  /** A new widget visitor in one call: its conversation into the index, its token (hashed) bound to it. */
  openVisitor(createdAt: number, tokenHash: string, visitor: VisitorRecord): void {
    this.index.addConversation(visitor.conversation_id, createdAt);
    this.keys.addVisitor(tokenHash, visitor);
  }

  /** The retired global CORS list (the `__cors__` instance only): the keys it holds for `origin`. */
  legacyOriginRefs(origin: string): { refs: string[]; drained: boolean } {
    return legacyOriginRefs(this.sql, origin);
  }

  /** The retired global CORS list: origins still listed, `limit` at a time (for the drain). */
  legacyOriginsPage(limit: number): LegacyOrigin[] {
    return legacyOriginsPage(this.sql, limit);
  }

  /** The retired global CORS list: forgets an origin once its own object holds its rows. */
  forgetLegacyOrigin(origin: string): void {
    forgetLegacyOrigin(this.sql, origin);
  }

  // ---- the conversation and job index (workspace-index.ts) ----

  addConversation(id: string, createdAt: number, title: string | null = null): void {
    this.index.addConversation(id, createdAt, title);
  }

  /** Sets the title a conversation is listed and searched by. */
  setConversationTitle(id: string, title: string | null): void {
    this.index.setConversationTitle(id, title);
  }

  removeConversation(id: string): boolean {
    return this.index.removeConversation(id);
  }

  hasConversation(id: string): boolean {
    return this.index.hasConversation(id);
  }

  /** Conversations newest first, `limit` at a time after the `cursor` one. */
  listConversations(
    limit: number,
    cursor: string | null,
    q: string | null = null,
  ): { ids: ConversationEntry[]; hasMore: boolean } {
    return this.index.listConversations(limit, cursor, q);
  }

  addJob(id: string, createdAt: number): void {
    this.index.addJob(id, createdAt);
  }

  removeJob(id: string): boolean {
    return this.index.removeJob(id);
  }

  hasJob(id: string): boolean {
    return this.index.hasJob(id);
  }

  /** Job ids oldest first, `limit` at a time after the `cursor` one. */
  listJobs(limit: number, cursor: string | null): { ids: string[]; hasMore: boolean } {
    return this.index.listJobs(limit, cursor);
  }

  // ---- settings (workspace-settings.ts) ----

  /** The search settings, keys included: for the conversation objects of this workspace only. */
  getSearchSettings(): SearchSettings {
    return this.settings.search();
  }

  /** Defaults for new conversations (model, instructions, tools allowed). */
  getAgentSettings(): AgentSettings {
    return this.settings.agent();
  }

  /** The widget's look, sent to the widget when a visitor session opens. */
  getWidgetSettings(): WidgetSettings {
    return this.settings.widget();
  }

  /** The workspace's allowed_domains and model_vision: for the conversation objects of this workspace. */
  getAgentPolicy(): AgentPolicy & { timezone: string | null } {
    return { ...this.settings.policy(), timezone: this.settings.agent().timezone ?? null };
  }

  /** Price overrides and the daily budget: for the conversation objects of this workspace. */
  getCostSettings(): CostSettings {
    return this.settings.cost();
  }

  // ---- the usage ledger: what the workspace's runs spent, per day ------------------------------

  /** Records a conversation's model call or ended run; returns today's dollars (for the daily budget). */
  recordUsage(entry: UsageEntry): number {
    return this.usage.record(entry);
  }

  /** Dollars spent today (UTC). */
  spentToday(): number {
    return this.usage.spentOn(utcDay(Date.now()));
  }

  /** Runs, tokens and dollars per day, model and conversation for a range of UTC days. */
  usageReport(from: string, to: string): UsageReport {
    return this.usage.report(from, to);
  }

  /** The same range as CSV rows, or null when it holds too many rows. */
  usageCsv(from: string, to: string): string | null {
    return this.usage.csv(from, to);
  }

  /** The settings as the API shows them (keys as `{ set }` markers). */
  getSettings(): SettingsView {
    return this.settings.view();
  }

  /** Applies a partial update; refuses an engine that lacks its key or URL (and then changes nothing). */
  updateSettings(update: SettingsUpdate): RpcResult<SettingsView> {
    return this.settings.update(update);
  }

  // ---- secrets (workspace-secrets.ts): write-only over the API, sealed at rest ----

  /** Stores (or replaces) a secret's value, encrypted. */
  putSecret(name: string, value: string): Promise<{ name: string; set: true }> {
    return this.secrets.put(name, value);
  }

  /** Names of the stored secrets, never their values. */
  secretNames(): { name: string; updated_at: number }[] {
    return this.secrets.names();
  }

  deleteSecret(name: string): boolean {
    return this.secrets.delete(name);
  }

  /** A secret's value, for tools that type it into a page (never returned over HTTP). */
  readSecret(name: string): Promise<string | null> {
    return this.secrets.read(name);
  }

  // ---- HTTP tools (workspace-http-tools.ts) ----

  /** Registers (or replaces) a workspace HTTP tool. */
  putHttpTool(tool: StoredHttpTool): void {
    this.tools.put(tool);
  }

  /** The workspace's HTTP tools, secrets included (for building tools; never returned by the API). */
  httpTools(): StoredHttpTool[] {
    return this.tools.list();
  }

  deleteHttpTool(name: string): boolean {
    return this.tools.delete(name);
  }

  // ---- the file ledger (engine/files/file-ledger.ts) ----

  /** Reserves room for a file write; see {@link FileLedger.reserve}. */
  fileReserve(path: string, size: number | "max", limits: FileLimits): Reservation {
    return this.files.reserve(path, size, limits);
  }

  /** Records a finished file write. */
  fileCommit(reservationId: string, size: number, modified: number): void {
    this.files.commit(reservationId, size, modified);
  }

  /** Drops the reservation of a failed file write. */
  fileRelease(reservationId: string): void {
    this.files.release(reservationId);
  }

  /** Forgets a deleted file or folder. */
  fileForget(path: string): number {
    return this.files.forget(path);
  }

  /** Size and newest change under each folder. */
  fileDirStats(dirs: string[]): DirStats[] {
    return this.files.dirStats(dirs);
  }

  /** Bytes and files the workspace holds. */
  fileUsage(): { bytes: number; files: number } {
    return this.files.usage();
  }

  // ---- browser profiles (browser-profiles.ts): values go only to the workspace's own browsers ----

  /** Creates an empty browser profile. */
  createProfile(name: string): Promise<RpcResult<ProfileInfo>> {
    return this.profiles.create(name);
  }

  /** The profiles, without values. */
  listProfiles(): ProfileInfo[] {
    return this.profiles.list();
  }

  /** One profile's facts, or null when there is none by that name. */
  profileInfo(name: string): ProfileInfo | null {
    return this.profiles.get(name);
  }

  deleteProfile(name: string): boolean {
    return this.profiles.delete(name);
  }

  /** A profile's state for a conversation's browser to start with (never shown over HTTP). */
  loadProfile(name: string): Promise<ProfileState | null> {
    return this.profiles.load(name);
  }

  /** Saves a conversation browser's state into a profile. */
  saveProfile(name: string, snapshot: ProfileState, knownSites: string[]): Promise<RpcResult<ProfileSaved>> {
    return this.profiles.save(name, snapshot, knownSites);
  }
}
