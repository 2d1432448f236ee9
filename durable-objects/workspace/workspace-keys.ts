/**
 * A workspace's keys in its SQLite: API keys (secret and publishable, stored hashed, publishable
 * ones with their allowed origins) and widget visitors (a token, hashed, bound to one
 * conversation). Widget rate limits are counted by the platform's Rate Limiting bindings.
 */
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { addColumn } from "../engine/store/migrations";
import { hashKey, randomToken } from "../engine/tokens";

/** Keys (secret and publishable) one workspace may hold. */
export const MAX_KEYS = 200;

/** What a key may do: `secret` is the full API; `publishable` only the widget routes. */
export type KeyType = "secret" | "publishable";

/** A key as listed: never its secret. */
export interface KeyRecord {
  id: string;
  name: string;
  type: KeyType;
  prefix: string;
  allowed_origins: string[];
  created_at: number;
}

/** A visitor of the widget: the conversation its token unlocks. */
export interface VisitorRecord {
  key_id: string;
  conversation_id: string;
}

/** A publishable key as the widget's admission needs it. */
export interface WidgetKey {
  id: string;
  allowed_origins: string[];
}

const KEY_COLUMNS = "id, name, type, prefix, allowed_origins, created_at";

type KeyRow = {
  id: string;
  name: string;
  type: string;
  prefix: string;
  allowed_origins: string;
  created_at: number;
};

function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type === "publishable" ? "publishable" : "secret",
    prefix: row.prefix,
    allowed_origins: JSON.parse(row.allowed_origins) as string[],
    created_at: row.created_at,
  };
}

/**
 * Creates the key and visitor tables: the object's schema steps call it. Workspaces stored before
 * schema versions may lack the later key columns or still hold the old rate-limit table.
 */
export function createKeyTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL, created_at INTEGER NOT NULL)`);
  addColumn(sql, "api_keys", "type", "TEXT NOT NULL DEFAULT 'secret'");
  addColumn(sql, "api_keys", "allowed_origins", "TEXT NOT NULL DEFAULT '[]'");
  sql.exec(`CREATE TABLE IF NOT EXISTS visitors (token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL,
      conversation_id TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS visitors_key ON visitors (key_id);
    DROP TABLE IF EXISTS rate_windows;`);
}

/** The key and visitor tables of one workspace. */
export class KeyStore {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Issues a key of workspace `workspaceId`; only its hash is kept, the key is returned once.
   * 409 `too_many_keys` when the workspace holds {@link MAX_KEYS} already.
   */
  async create(
    workspaceId: string,
    name: string,
    type: KeyType,
    allowedOrigins: string[],
  ): Promise<RpcResult<KeyRecord & { key: string }>> {
    const key = `${type === "publishable" ? "pk" : "sk"}_${workspaceId}_${randomToken(24)}`;
    const hash = await hashKey(key);
    // Counted after the await, in the same step as the insert, so concurrent requests cannot pass it.
    if (this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys").one().n >= MAX_KEYS)
      return fail(
        409,
        "too_many_keys",
        `A workspace holds at most ${MAX_KEYS} keys; revoke one (DELETE /v1/keys/{id}) before creating another.`,
      );
    const record: KeyRecord = {
      id: `key_${randomToken(9)}`,
      name,
      type,
      prefix: key.slice(0, workspaceId.length + 8),
      allowed_origins: type === "publishable" ? allowedOrigins : [],
      created_at: Date.now(),
    };
    this.sql.exec(
      "INSERT INTO api_keys (id, name, hash, prefix, created_at, type, allowed_origins) VALUES (?, ?, ?, ?, ?, ?, ?)",
      record.id,
      record.name,
      hash,
      record.prefix,
      record.created_at,
      record.type,
      JSON.stringify(record.allowed_origins),
    );
    return ok({ ...record, key });
  }

  /** Every key, oldest first. */
  list(): KeyRecord[] {
    return this.sql
      .exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`)
      .toArray()
      .map(toRecord);
  }

  /** One key, or null. */
  get(id: string): KeyRecord | null {
    const row = this.sql.exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, id).toArray()[0];
    return row ? toRecord(row) : null;
  }

  /** Changes a key's name or allowed origins; null when there is no such key. */
  update(id: string, patch: { name?: string; allowed_origins?: string[] }): KeyRecord | null {
    if (!this.get(id)) return null;
    if (patch.name !== undefined) this.sql.exec("UPDATE api_keys SET name = ? WHERE id = ?", patch.name, id);
    if (patch.allowed_origins !== undefined)
      this.sql.exec(
        "UPDATE api_keys SET allowed_origins = ? WHERE id = ?",
        JSON.stringify(patch.allowed_origins),
        id,
      );
    return this.get(id);
  }

  /** Deletes a key and the visitors it let in; returns the deleted key, or null. */
  delete(id: string): KeyRecord | null {
    const existing = this.get(id);
    if (!existing) return null;
    this.sql.exec("DELETE FROM api_keys WHERE id = ?", id);
    this.sql.exec("DELETE FROM visitors WHERE key_id = ?", id);
    return existing;
  }

  /** The key with this hash, or null. */
  byHash(hash: string): KeyRecord | null {
    const row = this.sql
      .exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`, hash)
      .toArray()[0];
    return row ? toRecord(row) : null;
  }

  /** The publishable key with this hash, as the widget's admission needs it, or null. */
  widgetKey(hash: string): WidgetKey | null {
    const key = this.byHash(hash);
    return key?.type === "publishable" ? { id: key.id, allowed_origins: key.allowed_origins } : null;
  }

  /** Records a visitor token (hashed) for one conversation. */
  addVisitor(tokenHash: string, visitor: VisitorRecord): void {
    this.sql.exec(
      "INSERT INTO visitors (token_hash, key_id, conversation_id, created_at) VALUES (?, ?, ?, ?)",
      tokenHash,
      visitor.key_id,
      visitor.conversation_id,
      Date.now(),
    );
  }

  /** The visitor with this token hash, or null. */
  visitor(tokenHash: string): VisitorRecord | null {
    return (
      this.sql
        .exec<{ key_id: string; conversation_id: string }>(
          "SELECT key_id, conversation_id FROM visitors WHERE token_hash = ?",
          tokenHash,
        )
        .toArray()[0] ?? null
    );
  }
}
