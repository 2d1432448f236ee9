/**
 * One Durable Object per workspace: its name, its API keys (stored hashed) and the index of
 * its conversations. Every workspace-scoped lookup starts here.
 */
import { DurableObject } from "cloudflare:workers";
import { authorizeWidget, type WidgetAuth, type WidgetAuthRequest } from "./widget-auth";
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
  registryAllows,
  setRegistryOrigins,
  updateKeyRecord,
  type VisitorRecord,
  verifyKey,
} from "./workspace-keys";

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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS workspace (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS conversations_created ON conversations (created_at, id);`);
    migrateKeyTables(this.sql);
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

  /** Checks a publishable key, its origin, the visitor and the rate limits in one call. */
  authorizeWidget(req: WidgetAuthRequest): WidgetAuth {
    return authorizeWidget(this.sql, req);
  }

  /** Binds a new visitor token (hashed) to one conversation. */
  addVisitor(tokenHash: string, visitor: VisitorRecord): void {
    insertVisitor(this.sql, tokenHash, visitor);
  }

  /** The visitor of a token hash, or null. */
  visitor(tokenHash: string): VisitorRecord | null {
    return findVisitor(this.sql, tokenHash);
  }

  /** CORS registry (the `__cors__` instance): sets the origins one key allows. */
  registerOrigins(keyRef: string, origins: string[]): void {
    setRegistryOrigins(this.sql, keyRef, origins);
  }

  /** CORS registry: whether any publishable key allows `origin`. */
  originAllowed(origin: string): boolean {
    return registryAllows(this.sql, origin);
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
}
