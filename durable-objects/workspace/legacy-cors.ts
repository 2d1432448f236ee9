/**
 * The CORS origin list that the `__cors__` WorkspaceObject instance held for every tenant before
 * each origin got its own OriginRegistry object. Read-only: an origin's object copies its rows
 * once, the first time the origin is used, so keys made before the split keep working.
 */

/** The key references (`<workspace>/<key id>`) the retired list holds for `origin`. */
export function legacyOriginRefs(sql: SqlStorage, origin: string): string[] {
  const table = sql
    .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cors_origins'")
    .toArray();
  if (table.length === 0) return [];
  return sql
    .exec<{ key_ref: string }>("SELECT key_ref FROM cors_origins WHERE origin = ? ORDER BY key_ref", origin)
    .toArray()
    .map((r) => r.key_ref);
}
