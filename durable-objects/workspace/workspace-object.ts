/**
 * One Durable Object per workspace: its name, its API keys (stored hashed) and the index of
 * its conversations. Every workspace-scoped lookup starts here.
 */
import { DurableObject } from "cloudflare:workers";
import type { AgentSettings, WidgetSettings } from "../../shared/agent-settings";
import type { CostSettings } from "../../shared/cost";
import type { StoredHttpTool } from "../../shared/http-tools";
import type { AgentPolicy, SearchSettings, SettingsUpdate, SettingsView } from "../../shared/settings";
import { type DirStats, FileLedger, type FileLimits, type Reservation } from "../engine/files/file-ledger";
import type { RpcResult } from "../engine/rpc-result";
import { openSecret, sealSecret, secretKey } from "../engine/secret-box";
import { legacyOriginRefs } from "./legacy-cors";
import {
  deleteKeyRecord,
  findVisitor,
  getKeyRecord,
  insertKey,
  insertVisitor,
  type KeyRecord,
  type KeyType,
  listKeyRecords,
  migrateKeyTables,
  updateKeyRecord,
  type VisitorRecord,
  verifyKey,
  type WidgetKey,
} from "./workspace-keys";
import { WorkspaceSettings } from "./workspace-settings";

/** A workspace as the API shows it. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: number;
}

/** A conversation entry of the workspace's index. */
export interface ConversationEntry {
  id: string;
  created_at: number;
}

/** SHA-256 of a key, hex: what is stored instead of the key. */
export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random URL-safe token of `bytes` bytes. */
export function randomToken(bytes = 24): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The Durable Object of one workspace. */
export class WorkspaceObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly files: FileLedger;
  private readonly settings: WorkspaceSettings;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS workspace (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS conversations_created ON conversations (created_at, id);
      CREATE TABLE IF NOT EXISTS http_tools (name TEXT PRIMARY KEY, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, sealed TEXT NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);`);
    this.files = new FileLedger(this.sql);
    this.settings = new WorkspaceSettings(this.sql);
    migrateKeyTables(this.sql);
  }

  // ---- the file ledger (sizes and quota of the workspace's files in R2) ----

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

  /** Creates the workspace record (idempotent). */
  init(id: string, name: string): WorkspaceRecord {
    const existing = this.get();
    if (existing) return existing;
    const created_at = Date.now();
    this.sql.exec("INSERT INTO workspace (id, name, created_at) VALUES (?, ?, ?)", id, name, created_at);
    return { id, name, created_at };
  }

  get(): WorkspaceRecord | null {
    return (
      this.sql
        .exec<{ id: string; name: string; created_at: number }>("SELECT * FROM workspace")
        .toArray()[0] ?? null
    );
  }

  /** Issues a key (secret by default); only its hash is kept. */
  async createKey(
    name: string,
    type: KeyType = "secret",
    allowedOrigins: string[] = [],
  ): Promise<(KeyRecord & { key: string }) | null> {
    const ws = this.get();
    if (!ws) return null;
    const key = `${type === "publishable" ? "pk" : "sk"}_${ws.id}_${randomToken(24)}`;
    const record: KeyRecord = {
      id: `key_${randomToken(9)}`,
      name,
      type,
      prefix: key.slice(0, ws.id.length + 8),
      allowed_origins: type === "publishable" ? allowedOrigins : [],
      created_at: Date.now(),
    };
    insertKey(this.sql, record, await hashKey(key));
    return { ...record, key };
  }

  /** Revokes a key; returns the revoked key so callers can update the CORS registry. */
  deleteKey(keyId: string): KeyRecord | null {
    const existing = getKeyRecord(this.sql, keyId);
    return existing && deleteKeyRecord(this.sql, keyId) ? existing : null;
  }

  listKeys(): KeyRecord[] {
    return listKeyRecords(this.sql);
  }

  /** Renames a key or replaces its allowed origins. */
  updateKey(keyId: string, patch: { name?: string; allowed_origins?: string[] }): KeyRecord | null {
    return updateKeyRecord(this.sql, keyId, patch);
  }

  /** The secret key id for a key hash, or null (publishable keys never pass here). */
  verifyKeyHash(hash: string): string | null {
    const key = verifyKey(this.sql, hash);
    return key?.type === "secret" ? key.id : null;
  }

  /** A publishable key by hash and, when asked, a visitor by token hash: the widget's one lookup. */
  widgetLookup(
    keyHash: string,
    visitorHash: string | null,
  ): { key: WidgetKey | null; visitor: VisitorRecord | null } {
    const key = verifyKey(this.sql, keyHash);
    return {
      key: key?.type === "publishable" ? { id: key.id, allowed_origins: key.allowed_origins } : null,
      visitor: visitorHash ? findVisitor(this.sql, visitorHash) : null,
    };
  }

  /** Binds a new visitor token (hashed) to one conversation. */
  addVisitor(tokenHash: string, visitor: VisitorRecord): void {
    insertVisitor(this.sql, tokenHash, visitor);
  }

  /** The visitor of a token hash, or null. */
  visitor(tokenHash: string): VisitorRecord | null {
    return findVisitor(this.sql, tokenHash);
  }

  /** The retired global CORS list (the `__cors__` instance only): the keys it holds for `origin`. */
  legacyOriginRefs(origin: string): string[] {
    return legacyOriginRefs(this.sql, origin);
  }

  /** Registers (or replaces) a workspace HTTP tool. */
  putHttpTool(tool: StoredHttpTool): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO http_tools (name, data) VALUES (?, ?)",
      tool.name,
      JSON.stringify(tool),
    );
  }

  /** The workspace's HTTP tools, secrets included (for building tools; never returned by the API). */
  httpTools(): StoredHttpTool[] {
    return this.sql
      .exec<{ data: string }>("SELECT data FROM http_tools ORDER BY name")
      .toArray()
      .map((r) => JSON.parse(r.data) as StoredHttpTool);
  }

  deleteHttpTool(name: string): boolean {
    return this.sql.exec("DELETE FROM http_tools WHERE name = ?", name).rowsWritten > 0;
  }

  addConversation(id: string, createdAt: number): void {
    this.sql.exec("INSERT OR IGNORE INTO conversations (id, created_at) VALUES (?, ?)", id, createdAt);
  }

  removeConversation(id: string): boolean {
    return this.sql.exec("DELETE FROM conversations WHERE id = ?", id).rowsWritten > 0;
  }

  hasConversation(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM conversations WHERE id = ?", id).toArray().length > 0;
  }

  /** Conversations newest first, `limit` at a time after the `cursor` one. */
  listConversations(limit: number, cursor: string | null): { ids: ConversationEntry[]; hasMore: boolean } {
    let rows: ConversationEntry[];
    if (cursor) {
      const at = this.sql
        .exec<{ created_at: number }>("SELECT created_at FROM conversations WHERE id = ?", cursor)
        .toArray()[0];
      if (!at) return { ids: [], hasMore: false };
      rows = this.sql
        .exec<{ id: string; created_at: number }>(
          "SELECT id, created_at FROM conversations WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?",
          at.created_at,
          cursor,
          limit + 1,
        )
        .toArray();
    } else {
      rows = this.sql
        .exec<{ id: string; created_at: number }>(
          "SELECT id, created_at FROM conversations ORDER BY created_at DESC, id DESC LIMIT ?",
          limit + 1,
        )
        .toArray();
    }
    return { ids: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  // ---- the job index (each job lives in its own JobObject) ----------------------------------

  addJob(id: string, createdAt: number): void {
    this.sql.exec("INSERT OR IGNORE INTO jobs (id, created_at) VALUES (?, ?)", id, createdAt);
  }

  removeJob(id: string): boolean {
    return this.sql.exec("DELETE FROM jobs WHERE id = ?", id).rowsWritten > 0;
  }

  hasJob(id: string): boolean {
    return this.sql.exec("SELECT 1 FROM jobs WHERE id = ?", id).toArray().length > 0;
  }

  /** Job ids oldest first, `limit` at a time after the `cursor` one. */
  listJobs(limit: number, cursor: string | null): { ids: string[]; hasMore: boolean } {
    const at = cursor
      ? this.sql.exec<{ created_at: number }>("SELECT created_at FROM jobs WHERE id = ?", cursor).toArray()[0]
      : null;
    if (cursor && !at) return { ids: [], hasMore: false };
    const rows = this.sql
      .exec<{ id: string }>(
        "SELECT id FROM jobs WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?",
        at?.created_at ?? -1,
        cursor ?? "",
        limit + 1,
      )
      .toArray();
    return { ids: rows.slice(0, limit).map((r) => r.id), hasMore: rows.length > limit };
  }

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
  getAgentPolicy(): AgentPolicy {
    return this.settings.policy();
  }

  /** Price overrides and the daily budget: for the conversation objects of this workspace. */
  getCostSettings(): CostSettings {
    return this.settings.cost();
  }

  /** The settings as the API shows them (keys as `{ set }` markers). */
  getSettings(): SettingsView {
    return this.settings.view();
  }

  /** Applies a partial update; refuses an engine that lacks its key or URL (and then changes nothing). */
  updateSettings(update: SettingsUpdate): RpcResult<SettingsView> {
    return this.settings.update(update);
  }

  // ---- secret store: write-only over the API, values encrypted at rest ----------------------

  /** Stores (or replaces) a secret's value, encrypted. */
  async putSecret(name: string, value: string): Promise<{ name: string; set: true }> {
    const sealed = await sealSecret(await this.secretKey(), this.secretAad(name), value);
    this.sql.exec(
      "INSERT OR REPLACE INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)",
      name,
      sealed,
      Date.now(),
    );
    return { name, set: true };
  }

  /** Names of the stored secrets, never their values. */
  secretNames(): { name: string; updated_at: number }[] {
    return this.sql
      .exec<{ name: string; updated_at: number }>("SELECT name, updated_at FROM secrets ORDER BY name")
      .toArray();
  }

  deleteSecret(name: string): boolean {
    return this.sql.exec("DELETE FROM secrets WHERE name = ?", name).rowsWritten > 0;
  }

  /** A secret's value, for tools that type it into a page (never returned over HTTP). */
  async readSecret(name: string): Promise<string | null> {
    const row = this.sql
      .exec<{ sealed: string }>("SELECT sealed FROM secrets WHERE name = ?", name)
      .toArray()[0];
    if (!row) return null;
    return openSecret(await this.secretKey(), this.secretAad(name), row.sealed);
  }

  private secretKey(): Promise<CryptoKey> {
    return secretKey(this.env);
  }

  private secretAad(name: string): string {
    return `${this.get()?.id ?? this.ctx.id.toString()}/${name}`;
  }
}
