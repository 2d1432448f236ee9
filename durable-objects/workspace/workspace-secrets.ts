/**
 * The workspace's secret store: write-only over the API, each value sealed at rest with
 * engine/secret-box.ts under a key derived from the deployment's root secret, bound to
 * `<workspace>/<name>` so a sealed value cannot be moved to another name or workspace. Beside
 * the sealed value: its kind (text or a TOTP seed) and the domains it may be typed on.
 */
import type { PutSecret, SecretInfo } from "../../schemas/browser-api";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { openSecret, type SecretKeyring, sealSecret } from "../engine/secret-box";
import type { TypableSecret } from "../engine/secrets/typable-secret";
import { addColumn } from "../engine/store/migrations";

/** Secrets one workspace may hold. */
export const MAX_SECRETS = 500;

/** A TOTP secret's defaults (RFC 6238's). */
const DEFAULT_DIGITS = 6;
const DEFAULT_PERIOD_S = 30;

type SecretRow = {
  name: string;
  sealed: string;
  kind: string;
  digits: number | null;
  period: number | null;
  allowed_domains: string | null;
  updated_at: number;
};

/** Creates the secrets table as it was at schema version 1: the object's schema steps call it. */
export function createSecretTable(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, sealed TEXT NOT NULL, updated_at INTEGER NOT NULL)",
  );
}

/** Adds each secret's kind (text or TOTP), its TOTP digits and period, and the domains it may be typed on. */
export function addSecretKinds(sql: SqlStorage): void {
  addColumn(sql, "secrets", "kind", "TEXT NOT NULL DEFAULT 'text'");
  addColumn(sql, "secrets", "digits", "INTEGER");
  addColumn(sql, "secrets", "period", "INTEGER");
  addColumn(sql, "secrets", "allowed_domains", "TEXT");
}

/** The secret table of one workspace. */
export class SecretStore {
  constructor(
    private readonly sql: SqlStorage,
    /** The sealing key (derived once per call from the root secret). */
    private readonly key: () => Promise<SecretKeyring>,
    /** The workspace's id, which binds each sealed value to its workspace. */
    private readonly owner: () => string,
  ) {}

  /** Stores (or replaces) a secret, its value encrypted; 409 when it would be one more than {@link MAX_SECRETS}. */
  async put(name: string, body: PutSecret): Promise<RpcResult<{ name: string; set: true }>> {
    const value = body.kind === "totp" ? body.value.replace(/[\s-]/g, "").toUpperCase() : body.value;
    const sealed = await sealSecret(await this.key(), this.aad(name), value);
    // Counted after the awaits, in the same step as the write, so concurrent requests cannot pass it.
    if (this.rows(name).length === 0 && this.count() >= MAX_SECRETS)
      return fail(
        409,
        "too_many_secrets",
        `A workspace holds at most ${MAX_SECRETS} secrets; delete one (DELETE /v1/secrets/{name}) before adding another.`,
      );
    const totp = body.kind === "totp";
    this.sql.exec(
      "INSERT OR REPLACE INTO secrets (name, sealed, updated_at, kind, digits, period, allowed_domains) VALUES (?, ?, ?, ?, ?, ?, ?)",
      name,
      sealed,
      Date.now(),
      body.kind,
      totp ? (body.digits ?? DEFAULT_DIGITS) : null,
      totp ? (body.period ?? DEFAULT_PERIOD_S) : null,
      body.allowed_domains?.length ? JSON.stringify(body.allowed_domains) : null,
    );
    return ok({ name, set: true as const });
  }

  /** The stored secrets' names, kinds and domains, never their values. */
  names(): SecretInfo[] {
    return this.rows().map((r) => ({
      name: r.name,
      kind: r.kind === "totp" ? "totp" : "text",
      allowed_domains: r.allowed_domains ? (JSON.parse(r.allowed_domains) as string[]) : null,
      updated_at: r.updated_at,
    }));
  }

  /** How many secrets are stored. */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM secrets").one().n;
  }

  delete(name: string): boolean {
    return this.sql.exec("DELETE FROM secrets WHERE name = ?", name).rowsWritten > 0;
  }

  /** A secret with its value, for type_secret (never returned over HTTP). */
  async read(name: string): Promise<TypableSecret | null> {
    const row = this.rows(name)[0];
    if (!row) return null;
    return {
      kind: row.kind === "totp" ? "totp" : "text",
      value: await openSecret(await this.key(), this.aad(name), row.sealed),
      digits: row.digits ?? DEFAULT_DIGITS,
      period: row.period ?? DEFAULT_PERIOD_S,
      allowed_domains: row.allowed_domains ? (JSON.parse(row.allowed_domains) as string[]) : null,
    };
  }

  private rows(name?: string): SecretRow[] {
    const cols = "name, sealed, kind, digits, period, allowed_domains, updated_at";
    return name === undefined
      ? this.sql.exec<SecretRow>(`SELECT ${cols} FROM secrets ORDER BY name`).toArray()
      : this.sql.exec<SecretRow>(`SELECT ${cols} FROM secrets WHERE name = ?`, name).toArray();
  }

  private aad(name: string): string {
    return `${this.owner()}/${name}`;
  }
}
