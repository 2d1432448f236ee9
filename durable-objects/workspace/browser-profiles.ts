/**
 * A workspace's browser profiles in its SQLite: each profile's state (cookies and local storage)
 * sealed with the secret box (AES-GCM, workspace id and profile name bound in), split across rows
 * when large, plus the facts the API may show (sites, size, times) — never a value.
 */
import type { ProfileInfo, ProfileSaved } from "../../schemas/browser-api";
import { EMPTY_PROFILE, mergeIntoProfile, type ProfileState, sitesOf } from "../engine/browser/profile-state";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { openSecret, sealSecret } from "../engine/secret-box";
import { dropValue, ensureLargeValueTable, packValue, unpackValue } from "../engine/store/large-values";

/** Largest saved state of one profile, in bytes of JSON before encryption. */
export const MAX_PROFILE_BYTES = 8 * 1024 * 1024;
/** Profiles one workspace may hold. */
export const MAX_PROFILES = 100;

type Row = {
  name: string;
  sealed: string;
  sites: string;
  size: number;
  created_at: number;
  updated_at: number;
};

const info = (r: Row): ProfileInfo => ({
  name: r.name,
  origins: JSON.parse(r.sites) as string[],
  size: r.size,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Creates the browser profiles table (and the large-value table it uses): the object's schema steps call it. */
export function createProfileTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS browser_profiles (name TEXT PRIMARY KEY, sealed TEXT NOT NULL,
    sites TEXT NOT NULL, size INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`);
  ensureLargeValueTable(sql);
}

/** Sealed browser profiles of one workspace. */
export class BrowserProfiles {
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sql: SqlStorage,
    private readonly key: () => Promise<CryptoKey>,
    private readonly aad: (name: string) => string,
  ) {}

  /** Creates an empty profile; 409 when the name is taken. */
  async create(name: string): Promise<RpcResult<ProfileInfo>> {
    if (this.row(name)) return fail(409, "profile_exists", `A browser profile named ${name} already exists.`);
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM browser_profiles").one().n;
    if (count >= MAX_PROFILES)
      return fail(409, "too_many_profiles", `A workspace holds at most ${MAX_PROFILES} browser profiles.`);
    const now = Date.now();
    const sealed = await this.seal(name, EMPTY_PROFILE);
    this.sql.exec(
      "INSERT INTO browser_profiles (name, sealed, sites, size, created_at, updated_at) VALUES (?, ?, '[]', 0, ?, ?)",
      name,
      sealed,
      now,
      now,
    );
    return ok(info(this.row(name)!));
  }

  /** Every profile, by name, without values. */
  list(): ProfileInfo[] {
    return this.sql.exec<Row>("SELECT * FROM browser_profiles ORDER BY name").toArray().map(info);
  }

  /** One profile's facts, or null. */
  get(name: string): ProfileInfo | null {
    const row = this.row(name);
    return row ? info(row) : null;
  }

  delete(name: string): boolean {
    const row = this.row(name);
    if (!row) return false;
    dropValue(this.sql, row.sealed);
    this.sql.exec("DELETE FROM browser_profiles WHERE name = ?", name);
    return true;
  }

  /** A profile's state, decrypted (for the conversation's browser only), or null when it is gone. */
  async load(name: string): Promise<ProfileState | null> {
    const row = this.row(name);
    if (!row) return null;
    const plain = await openSecret(
      await this.key(),
      this.aad(name),
      unpackValue<string>(this.sql, row.sealed),
    );
    return JSON.parse(plain) as ProfileState;
  }

  /** Saves a browser's state into a profile by the site-by-site rule of {@link mergeIntoProfile}. */
  save(name: string, snapshot: ProfileState, knownSites: string[]): Promise<RpcResult<ProfileSaved>> {
    // One save at a time: the merge reads, decrypts and writes, and must not interleave with another.
    const next = this.saving.then(() => this.saveNow(name, snapshot, knownSites));
    this.saving = next.catch(() => {});
    return next;
  }

  private async saveNow(
    name: string,
    snapshot: ProfileState,
    knownSites: string[],
  ): Promise<RpcResult<ProfileSaved>> {
    const current = await this.load(name);
    if (!current) return fail(404, "profile_not_found", `The browser profile ${name} no longer exists.`);
    const { state, replaced } = mergeIntoProfile(current, snapshot, knownSites);
    const json = JSON.stringify(state);
    const size = new TextEncoder().encode(json).byteLength;
    if (size > MAX_PROFILE_BYTES)
      return fail(
        413,
        "profile_too_large",
        `The browser state is ${size} bytes; a profile holds at most ${MAX_PROFILE_BYTES}. Nothing was saved.`,
      );
    const sealed = await this.seal(name, state);
    const old = this.row(name)!;
    dropValue(this.sql, old.sealed);
    this.sql.exec(
      "UPDATE browser_profiles SET sealed = ?, sites = ?, size = ?, updated_at = ? WHERE name = ?",
      sealed,
      JSON.stringify(sitesOf(state)),
      size,
      Date.now(),
      name,
    );
    return ok({ profile: info(this.row(name)!), saved_sites: replaced });
  }

  private async seal(name: string, state: ProfileState): Promise<string> {
    const sealed = await sealSecret(await this.key(), this.aad(name), JSON.stringify(state));
    return packValue(this.sql, sealed);
  }

  private row(name: string): Row | null {
    return this.sql.exec<Row>("SELECT * FROM browser_profiles WHERE name = ?", name).toArray()[0] ?? null;
  }
}
