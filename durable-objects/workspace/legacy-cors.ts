/**
 * The CORS origin list that the `__cors__` WorkspaceObject instance held for every tenant before
 * each origin got its own OriginRegistry object. Never written again: an origin's object copies
 * its rows the first time the origin is used, and the Cron Trigger drains the rest into the
 * origins' objects, then drops the table.
 */

/** One origin's rows of the retired list. */
export interface LegacyOrigin {
  origin: string;
  refs: string[];
}

function hasTable(sql: SqlStorage): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cors_origins'").toArray().length >
    0
  );
}

/** The key references (`<workspace>/<key id>`) held for `origin`, and whether the list is gone. */
export function legacyOriginRefs(sql: SqlStorage, origin: string): { refs: string[]; drained: boolean } {
  if (!hasTable(sql)) return { refs: [], drained: true };
  const refs = sql
    .exec<{ key_ref: string }>("SELECT key_ref FROM cors_origins WHERE origin = ? ORDER BY key_ref", origin)
    .toArray()
    .map((r) => r.key_ref);
  return { refs, drained: false };
}

/** Up to `limit` origins still listed, with their rows; empty once drained. */
export function legacyOriginsPage(sql: SqlStorage, limit: number): LegacyOrigin[] {
  if (!hasTable(sql)) return [];
  return sql
    .exec<{ origin: string }>("SELECT DISTINCT origin FROM cors_origins ORDER BY origin LIMIT ?", limit)
    .toArray()
    .map(({ origin }) => ({ origin, refs: legacyOriginRefs(sql, origin).refs }));
}

/** Removes an origin copied to its own object; drops the table when it is the last. */
export function forgetLegacyOrigin(sql: SqlStorage, origin: string): void {
  if (!hasTable(sql)) return;
  sql.exec("DELETE FROM cors_origins WHERE origin = ?", origin);
  if (sql.exec("SELECT 1 FROM cors_origins LIMIT 1").toArray().length === 0)
    sql.exec("DROP TABLE cors_origins");
}
