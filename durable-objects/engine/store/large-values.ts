/**
 * Stores JSON values of any size in Durable Object SQLite, whose rows are capped at 2 MB:
 * small values stay inline, large ones are split across rows of the `large_values` table.
 */

/** Values whose JSON is longer than this many UTF-16 units are split (a unit is at most 3 bytes). */
export const INLINE_LIMIT = 256 * 1024;
const CHUNK_CHARS = 256 * 1024;

/** A reference stored in place of a large value. */
const REF_PREFIX = "\u0000ref:";

/** Creates the chunk table; call once per object start. */
export function ensureLargeValueTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS large_values (
    ref TEXT NOT NULL, idx INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (ref, idx))`);
}

/** Serialises `value`, moving it to chunk rows when too large for one cell; returns what to store inline. */
export function packValue(sql: SqlStorage, value: unknown): string {
  const json = JSON.stringify(value);
  if (json.length <= INLINE_LIMIT) return json;
  const ref = crypto.randomUUID();
  for (let i = 0, idx = 0; i < json.length; i += CHUNK_CHARS, idx++) {
    sql.exec(
      "INSERT INTO large_values (ref, idx, data) VALUES (?, ?, ?)",
      ref,
      idx,
      json.slice(i, i + CHUNK_CHARS),
    );
  }
  return REF_PREFIX + ref;
}

/** Reads back a value stored by {@link packValue}. */
export function unpackValue<T = unknown>(sql: SqlStorage, stored: string): T {
  if (!stored.startsWith(REF_PREFIX)) return JSON.parse(stored) as T;
  const ref = stored.slice(REF_PREFIX.length);
  const parts = sql
    .exec<{ data: string }>("SELECT data FROM large_values WHERE ref = ? ORDER BY idx", ref)
    .toArray()
    .map((r) => r.data);
  return JSON.parse(parts.join("")) as T;
}

/** Deletes the chunks behind a stored value, if it had any. */
export function dropValue(sql: SqlStorage, stored: string): void {
  if (stored.startsWith(REF_PREFIX))
    sql.exec("DELETE FROM large_values WHERE ref = ?", stored.slice(REF_PREFIX.length));
}
