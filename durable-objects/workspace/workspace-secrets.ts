/**
 * The workspace's secret store: write-only over the API, each value sealed at rest with
 * engine/secret-box.ts under a key derived from the deployment's root secret, bound to
 * `<workspace>/<name>` so a sealed value cannot be moved to another name or workspace.
 */
import { openSecret, sealSecret } from "../engine/secret-box";

/** Creates the secrets table: the object's schema steps call it. */
export function createSecretTable(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, sealed TEXT NOT NULL, updated_at INTEGER NOT NULL)",
  );
}

/** The secret table of one workspace. */
export class SecretStore {
  constructor(
    private readonly sql: SqlStorage,
    /** The sealing key (derived once per call from the root secret). */
    private readonly key: () => Promise<CryptoKey>,
    /** The workspace's id, which binds each sealed value to its workspace. */
    private readonly owner: () => string,
  ) {}

  /** Stores (or replaces) a secret's value, encrypted. */
  async put(name: string, value: string): Promise<{ name: string; set: true }> {
    const sealed = await sealSecret(await this.key(), this.aad(name), value);
    this.sql.exec(
      "INSERT OR REPLACE INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)",
      name,
      sealed,
      Date.now(),
    );
    return { name, set: true };
  }

  /** Names of the stored secrets, never their values. */
  names(): { name: string; updated_at: number }[] {
    return this.sql
      .exec<{ name: string; updated_at: number }>("SELECT name, updated_at FROM secrets ORDER BY name")
      .toArray();
  }

  delete(name: string): boolean {
    return this.sql.exec("DELETE FROM secrets WHERE name = ?", name).rowsWritten > 0;
  }

  /** A secret's value, for tools that type it into a page (never returned over HTTP). */
  async read(name: string): Promise<string | null> {
    const row = this.sql
      .exec<{ sealed: string }>("SELECT sealed FROM secrets WHERE name = ?", name)
      .toArray()[0];
    if (!row) return null;
    return openSecret(await this.key(), this.aad(name), row.sealed);
  }

  private aad(name: string): string {
    return `${this.owner()}/${name}`;
  }
}
