/**
 * The key tables of a workspace's SQLite: API keys (secret and publishable, stored hashed) and
 * widget visitors (a token bound to one conversation). WorkspaceObject owns the storage and
 * delegates here. Widget rate limits are counted by the platform's Rate Limiting bindings.
 */

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

/** A key's hash resolved with its type and allowed origins. */
export interface VerifiedKey {
  id: string;
  type: KeyType;
  allowed_origins: string[];
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

/** Creates the tables and adds the key columns to workspaces created before them. */
export function migrateKeyTables(sql: SqlStorage): void {
  const columns = new Set(
    sql
      .exec<{ name: string }>("PRAGMA table_info(api_keys)")
      .toArray()
      .map((c) => c.name),
  );
  if (!columns.has("type")) sql.exec("ALTER TABLE api_keys ADD COLUMN type TEXT NOT NULL DEFAULT 'secret'");
  if (!columns.has("allowed_origins"))
    sql.exec("ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '[]'");
  sql.exec(`CREATE TABLE IF NOT EXISTS visitors (token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL,
      conversation_id TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS visitors_key ON visitors (key_id);
    DROP TABLE IF EXISTS rate_windows;`);
}

/** Stores a new key's hash and metadata. */
export function insertKey(sql: SqlStorage, record: KeyRecord, hash: string): KeyRecord {
  sql.exec(
    "INSERT INTO api_keys (id, name, hash, prefix, created_at, type, allowed_origins) VALUES (?, ?, ?, ?, ?, ?, ?)",
    record.id,
    record.name,
    hash,
    record.prefix,
    record.created_at,
    record.type,
    JSON.stringify(record.allowed_origins),
  );
  return record;
}

/** Every key, oldest first. */
export function listKeyRecords(sql: SqlStorage): KeyRecord[] {
  return sql
    .exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`)
    .toArray()
    .map(toRecord);
}

/** One key, or null. */
export function getKeyRecord(sql: SqlStorage, id: string): KeyRecord | null {
  const row = sql.exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, id).toArray()[0];
  return row ? toRecord(row) : null;
}

/** Changes a key's name or allowed origins; null when there is no such key. */
export function updateKeyRecord(
  sql: SqlStorage,
  id: string,
  patch: { name?: string; allowed_origins?: string[] },
): KeyRecord | null {
  if (!getKeyRecord(sql, id)) return null;
  if (patch.name !== undefined) sql.exec("UPDATE api_keys SET name = ? WHERE id = ?", patch.name, id);
  if (patch.allowed_origins !== undefined)
    sql.exec(
      "UPDATE api_keys SET allowed_origins = ? WHERE id = ?",
      JSON.stringify(patch.allowed_origins),
      id,
    );
  return getKeyRecord(sql, id);
}

/** Deletes a key and the visitors it let in. */
export function deleteKeyRecord(sql: SqlStorage, id: string): boolean {
  const deleted = sql.exec("DELETE FROM api_keys WHERE id = ?", id).rowsWritten > 0;
  if (deleted) sql.exec("DELETE FROM visitors WHERE key_id = ?", id);
  return deleted;
}

/** The key with this hash, or null. */
export function verifyKey(sql: SqlStorage, hash: string): VerifiedKey | null {
  const row = sql.exec<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`, hash).toArray()[0];
  if (!row) return null;
  const rec = toRecord(row);
  return { id: rec.id, type: rec.type, allowed_origins: rec.allowed_origins };
}

/** Records a visitor token (hashed) for one conversation. */
export function insertVisitor(sql: SqlStorage, tokenHash: string, visitor: VisitorRecord): void {
  sql.exec(
    "INSERT INTO visitors (token_hash, key_id, conversation_id, created_at) VALUES (?, ?, ?, ?)",
    tokenHash,
    visitor.key_id,
    visitor.conversation_id,
    Date.now(),
  );
}

/** The visitor with this token hash, or null. */
export function findVisitor(sql: SqlStorage, tokenHash: string): VisitorRecord | null {
  return (
    sql
      .exec<{ key_id: string; conversation_id: string }>(
        "SELECT key_id, conversation_id FROM visitors WHERE token_hash = ?",
        tokenHash,
      )
      .toArray()[0] ?? null
  );
}
