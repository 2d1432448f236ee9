/**
 * One Durable Object per workspace: it owns the workspace's SQLite and lifecycle and hands each
 * concern to its module. Every workspace-scoped lookup starts here. It holds:
 * - the workspace record (id, name): workspace-record.ts;
 * - API keys (secret and publishable, hashed) and widget visitors: workspace-keys.ts;
 * - the index of its conversations and of its jobs: workspace-index.ts;
 * - settings (agent defaults, search engine and keys, widget look, policy, cost): workspace-settings.ts;
 * - secrets, sealed at rest: workspace-secrets.ts;
 * - HTTP tools: workspace-http-tools.ts;
 * - browser profiles (cookies and local storage, sealed at rest): browser-profiles.ts;
 * - the file ledger (sizes and quota of its files in R2): engine/files/file-ledger.ts;
 * - in the retired `__cors__` instance only, the old global CORS list, copied out by OriginRegistry
 *   and drained by the Cron Trigger: legacy-cors.ts.
 * The stores are assembled by workspace-parts.ts. Widget rate limits are the platform's Rate
 * Limiting bindings; CORS origins live in OriginRegistry.
 */
import { DurableObject } from "cloudflare:workers";
import type { AgentSettings, WidgetSettings } from "../../schemas/agent-settings";
import type { ProfileInfo, ProfileSaved, PutSecret, SecretInfo } from "../../schemas/browser-api";
import type { CostSettings } from "../../schemas/cost";
import { type StoredHttpTool, type UpdateHttpTool, updatedHttpTool } from "../../schemas/http-tools";
import type { AgentPolicy, SearchSettings, SettingsUpdate, SettingsView } from "../../schemas/settings";
import type { UsageEntry, UsageReport } from "../../schemas/usage";
import type { ProfileState } from "../engine/browser/profile-state";
import type { DirStats, FileLimits, Reservation } from "../engine/files/file-ledger";
import { fail, type RpcResult } from "../engine/rpc-result";
import type { TypableSecret } from "../engine/secrets/typable-secret";
import { migrate } from "../engine/store/migrations";
import { forgetLegacyOrigin, type LegacyOrigin, legacyOriginRefs, legacyOriginsPage } from "./legacy-cors";
import { utcDay } from "./usage-ledger";
import type { ConversationEntry, IndexPage } from "./workspace-index";
import type { KeyRecord, KeyType, VisitorRecord, WidgetKey } from "./workspace-keys";
import { type WorkspaceParts, workspaceParts } from "./workspace-parts";
import type { WorkspaceRecord } from "./workspace-record";
import { WORKSPACE_MIGRATIONS } from "./workspace-schema";

/** The Durable Object of one workspace. */
export class WorkspaceObject extends DurableObject<Env> {
  private readonly p: WorkspaceParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrate(ctx.storage, WORKSPACE_MIGRATIONS);
    this.p = workspaceParts(ctx.storage.sql, env, ctx.id.toString());
  }

  /** Creates the workspace record (idempotent). */
  init(id: string, name: string): WorkspaceRecord {
    return this.p.record.init(id, name);
  }

  /** The workspace record, or null before `init`. */
  get(): WorkspaceRecord | null {
    return this.p.record.get();
  }

  /** Issues a key (secret by default); only its hash is kept. 409 `too_many_keys` past MAX_KEYS. */
  async createKey(
    name: string,
    type: KeyType = "secret",
    allowedOrigins: string[] = [],
  ): Promise<RpcResult<KeyRecord & { key: string }>> {
    const ws = this.get();
    if (!ws) return fail(404, "not_found", "This workspace does not exist.");
    return this.p.keys.create(ws.id, name, type, allowedOrigins);
  }

  /** Revokes a key; returns the revoked key so callers can update the origin registry. */
  deleteKey(keyId: string): KeyRecord | null {
    return this.p.keys.delete(keyId);
  }

  listKeys(): KeyRecord[] {
    return this.p.keys.list();
  }

  /** Renames a key or replaces its allowed origins. */
  updateKey(keyId: string, patch: { name?: string; allowed_origins?: string[] }): KeyRecord | null {
    return this.p.keys.update(keyId, patch);
  }

  /** The secret key id for a key hash, or null (publishable keys never pass here). */
  verifyKeyHash(hash: string): string | null {
    const key = this.p.keys.byHash(hash);
    return key?.type === "secret" ? key.id : null;
  }

  /** A publishable key by hash and, when asked, a visitor by token hash: the widget's one lookup. */
  widgetLookup(
    keyHash: string,
    visitorHash: string | null,
  ): { key: WidgetKey | null; visitor: VisitorRecord | null } {
    return {
      key: this.p.keys.widgetKey(keyHash),
      visitor: visitorHash ? this.p.keys.visitor(visitorHash) : null,
    };
  }

  /** A new widget visitor in one call: its conversation into the index, its token (hashed) bound to it. */
  openVisitor(createdAt: number, tokenHash: string, visitor: VisitorRecord): void {
    this.p.index.addConversation(visitor.conversation_id, createdAt);
    this.p.keys.addVisitor(tokenHash, visitor);
  }

  /** The retired global CORS list (the `__cors__` instance only): the keys it holds for `origin`. */
  legacyOriginRefs(origin: string): { refs: string[]; drained: boolean } {
    return legacyOriginRefs(this.p.sql, origin);
  }

  /** The retired global CORS list: origins still listed, `limit` at a time (for the drain). */
  legacyOriginsPage(limit: number): LegacyOrigin[] {
    return legacyOriginsPage(this.p.sql, limit);
  }

  /** The retired global CORS list: forgets an origin once its own object holds its rows. */
  forgetLegacyOrigin(origin: string): void {
    forgetLegacyOrigin(this.p.sql, origin);
  }

  addConversation(id: string, createdAt: number, title: string | null = null): void {
    this.p.index.addConversation(id, createdAt, title);
  }

  /** Sets the title a conversation is listed and searched by. */
  setConversationTitle(id: string, title: string | null): void {
    this.p.index.setConversationTitle(id, title);
  }

  removeConversation(id: string): boolean {
    return this.p.index.removeConversation(id);
  }

  hasConversation(id: string): boolean {
    return this.p.index.hasConversation(id);
  }

  /** Conversations newest first, `limit` at a time after the `cursor` position. */
  listConversations(
    limit: number,
    cursor: string | null,
    q: string | null = null,
  ): RpcResult<IndexPage<ConversationEntry>> {
    return this.p.index.listConversations(limit, cursor, q);
  }

  addJob(id: string, createdAt: number): void {
    this.p.index.addJob(id, createdAt);
  }

  removeJob(id: string): boolean {
    return this.p.index.removeJob(id);
  }

  hasJob(id: string): boolean {
    return this.p.index.hasJob(id);
  }

  /** Job ids oldest first, `limit` at a time after the `cursor` position. */
  listJobs(limit: number, cursor: string | null): RpcResult<IndexPage<string>> {
    return this.p.index.listJobs(limit, cursor);
  }

  /** The search settings, keys included: for the conversation objects of this workspace only. */
  getSearchSettings(): SearchSettings {
    return this.p.settings.search();
  }

  /** Defaults for new conversations (model, instructions, tools allowed). */
  getAgentSettings(): AgentSettings {
    return this.p.settings.agent();
  }

  /** The widget's look, sent to the widget when a visitor session opens. */
  getWidgetSettings(): WidgetSettings {
    return this.p.settings.widget();
  }

  /** The workspace's allowed_domains and model_vision: for the conversation objects of this workspace. */
  getAgentPolicy(): AgentPolicy & { timezone: string | null } {
    return { ...this.p.settings.policy(), timezone: this.p.settings.agent().timezone ?? null };
  }

  /** Price overrides and the daily budget: for the conversation objects of this workspace. */
  getCostSettings(): CostSettings {
    return this.p.settings.cost();
  }

  /** Records a conversation's model call or ended run; returns today's dollars (for the daily budget). */
  recordUsage(entry: UsageEntry): number {
    return this.p.usage.record(entry);
  }

  /** Dollars spent today (UTC). */
  spentToday(): number {
    return this.p.usage.spentOn(utcDay(Date.now()));
  }

  /** Runs, tokens and dollars per day, model and conversation for a range of UTC days. */
  usageReport(from: string, to: string): UsageReport {
    return this.p.usage.report(from, to);
  }

  /** The same range as CSV rows, or null when it holds too many rows. */
  usageCsv(from: string, to: string): string | null {
    return this.p.usage.csv(from, to);
  }

  /** The settings as the API shows them (keys as `{ set }` markers). */
  getSettings(): SettingsView {
    return this.p.settings.view();
  }

  /** Applies a partial update; refuses an engine that lacks its key or URL (and then changes nothing). */
  updateSettings(update: SettingsUpdate): RpcResult<SettingsView & { credentials_cleared: boolean }> {
    return this.p.settings.update(update);
  }

  /** Stores (or replaces) a secret, its value encrypted; 409 `too_many_secrets` past MAX_SECRETS. */
  putSecret(name: string, body: PutSecret): Promise<RpcResult<{ name: string; set: true }>> {
    return this.p.secrets.put(name, body);
  }

  /** Names, kinds and domains of the stored secrets, never their values. */
  secretNames(): SecretInfo[] {
    return this.p.secrets.names();
  }

  deleteSecret(name: string): boolean {
    return this.p.secrets.delete(name);
  }

  /** A secret with its value, for type_secret (never returned over HTTP). */
  readSecret(name: string): Promise<TypableSecret | null> {
    return this.p.secrets.read(name);
  }

  /** Registers (or replaces) a workspace HTTP tool; 409 `too_many_tools` past MAX_HTTP_TOOLS. */
  putHttpTool(tool: StoredHttpTool): RpcResult<null> {
    return this.p.tools.put(tool);
  }

  /** Changes a registered HTTP tool (atomically); null when there is no such tool. */
  updateHttpTool(name: string, patch: UpdateHttpTool): { tool: StoredHttpTool; cleared: boolean } | null {
    const tool = this.p.tools.list().find((t) => t.name === name);
    if (!tool) return null;
    const updated = updatedHttpTool(tool, patch);
    this.p.tools.put(updated.tool);
    return updated;
  }

  /** The workspace's HTTP tools, secrets included (for building tools; never returned by the API). */
  httpTools(): StoredHttpTool[] {
    return this.p.tools.list();
  }

  deleteHttpTool(name: string): boolean {
    return this.p.tools.delete(name);
  }

  /** Reserves room for a file write; see {@link FileLedger.reserve}. */
  fileReserve(path: string, size: number | "max", limits: FileLimits): Reservation {
    return this.p.files.reserve(path, size, limits);
  }

  /** Records a finished file write. */
  fileCommit(reservationId: string, size: number, modified: number): void {
    this.p.files.commit(reservationId, size, modified);
  }

  /** Drops the reservation of a failed file write. */
  fileRelease(reservationId: string): void {
    this.p.files.release(reservationId);
  }

  /** Forgets a deleted file or folder. */
  fileForget(path: string): number {
    return this.p.files.forget(path);
  }

  /** Size and newest change under each folder. */
  fileDirStats(dirs: string[]): DirStats[] {
    return this.p.files.dirStats(dirs);
  }

  /** Bytes and files the workspace holds. */
  fileUsage(): { bytes: number; files: number } {
    return this.p.files.usage();
  }

  /** Creates an empty browser profile. */
  createProfile(name: string): Promise<RpcResult<ProfileInfo>> {
    return this.p.profiles.create(name);
  }

  /** The profiles, without values. */
  listProfiles(): ProfileInfo[] {
    return this.p.profiles.list();
  }

  /** One profile's facts, or null when there is none by that name. */
  profileInfo(name: string): ProfileInfo | null {
    return this.p.profiles.get(name);
  }

  deleteProfile(name: string): boolean {
    return this.p.profiles.delete(name);
  }

  /** A profile's state for a conversation's browser to start with (never shown over HTTP). */
  loadProfile(name: string): Promise<ProfileState | null> {
    return this.p.profiles.load(name);
  }

  /** Saves a conversation browser's state into a profile. */
  saveProfile(name: string, snapshot: ProfileState, knownSites: string[]): Promise<RpcResult<ProfileSaved>> {
    return this.p.profiles.save(name, snapshot, knownSites);
  }
}
