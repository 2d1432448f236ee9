/**
 * A conversation's browser registry in the fleet's SQLite (one scope per conversation): tabs
 * (stable small ids, window, target, url, title, active), the session its context lives on, a
 * count of contexts opened for it and the cookies and local storage needed to rebuild a lost
 * context (seeded from a browser profile).
 */

/** A tab as stored. */
export interface TabRecord {
  id: number;
  window_id: number;
  target_id: string | null;
  url: string;
  title: string;
  active: boolean;
}

/** A cookie as saved for restoring (the CDP Network.CookieParam subset). */
export interface SavedCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
}

/** Local storage entries per origin. */
export type SavedStorage = Record<string, [string, string][]>;

/** The window new tabs go to when none is named. */
export const DEFAULT_WINDOW_ID = 1;

type Row = {
  scope?: string;
  id: number;
  window_id: number;
  target_id: string | null;
  url: string;
  title: string;
  active: number;
};

/**
 * Creates the tab tables conversations held when each had its own browser (their baseline schema
 * step keeps them; nothing reads them since the fleet holds the tabs).
 */
export function createTabTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS browser_tabs (id INTEGER PRIMARY KEY, window_id INTEGER NOT NULL,
      target_id TEXT, url TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', active INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE IF NOT EXISTS browser_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
}

/** Creates the fleet's tab tables (every conversation's tabs and browser state, by scope). */
export function createFleetTabTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS fleet_tabs (scope TEXT NOT NULL, id INTEGER NOT NULL, window_id INTEGER NOT NULL,
      target_id TEXT, url TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', active INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (scope, id));
    CREATE TABLE IF NOT EXISTS fleet_tab_meta (scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
      PRIMARY KEY (scope, key));`);
}

/** SQLite-backed browser registry of one conversation (`scope`: its id) in the fleet. */
export class TabStore {
  constructor(
    private readonly sql: SqlStorage,
    readonly scope: string,
  ) {}

  /** Forgets everything of this conversation (it was deleted). */
  clear(): void {
    this.sql.exec("DELETE FROM fleet_tabs WHERE scope = ?", this.scope);
    this.sql.exec("DELETE FROM fleet_tab_meta WHERE scope = ?", this.scope);
  }

  /** Every tab, by id. */
  tabs(): TabRecord[] {
    return this.sql
      .exec<Row>("SELECT * FROM fleet_tabs WHERE scope = ? ORDER BY id", this.scope)
      .toArray()
      .map(toRecord);
  }

  tab(id: number): TabRecord | null {
    const row = this.sql
      .exec<Row>("SELECT * FROM fleet_tabs WHERE scope = ? AND id = ?", this.scope, id)
      .toArray()[0];
    return row ? toRecord(row) : null;
  }

  /** Adds a tab with the next id (ids are never reused). */
  addTab(windowId: number, url: string, targetId: string | null): TabRecord {
    const id = this.getMeta<number>("next_tab_id") ?? 1;
    this.setMeta("next_tab_id", id + 1);
    this.sql.exec(
      "INSERT INTO fleet_tabs (scope, id, window_id, target_id, url, title, active) VALUES (?, ?, ?, ?, ?, '', 0)",
      this.scope,
      id,
      windowId,
      targetId,
      url,
    );
    return this.tab(id)!;
  }

  /** Updates a tab's page facts. */
  updateTab(id: number, patch: Partial<Pick<TabRecord, "url" | "title" | "target_id">>): void {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      this.sql.exec(`UPDATE fleet_tabs SET ${key} = ? WHERE scope = ? AND id = ?`, value, this.scope, id);
    }
  }

  removeTab(id: number): void {
    this.sql.exec("DELETE FROM fleet_tabs WHERE scope = ? AND id = ?", this.scope, id);
  }

  /** Makes a tab the one active tab of its window and focuses that window. */
  activate(id: number): void {
    const tab = this.tab(id);
    if (!tab) return;
    this.sql.exec(
      "UPDATE fleet_tabs SET active = (id = ?) WHERE scope = ? AND window_id = ?",
      id,
      this.scope,
      tab.window_id,
    );
    this.setMeta("focused_window", tab.window_id);
  }

  /** After a close: gives the window its newest remaining tab as active, if it has none. */
  repairActive(windowId: number): void {
    const rows = this.tabs().filter((t) => t.window_id === windowId);
    if (rows.length > 0 && !rows.some((t) => t.active)) this.activate(rows[rows.length - 1].id);
  }

  /** The active tab of the focused window (else of any window). */
  currentTab(): TabRecord | null {
    const focused = this.getMeta<number>("focused_window");
    const active = this.tabs().filter((t) => t.active);
    return active.find((t) => t.window_id === focused) ?? active[0] ?? null;
  }

  /** The stored browser session id. */
  sessionId(): string | null {
    return this.getMeta<string>("session_id");
  }

  setSession(sessionId: string | null, launched: boolean): void {
    this.setMeta("session_id", sessionId);
    if (launched) this.setMeta("launches", this.launches() + 1);
  }

  /** The key of the WebSocket rules the current context was made under (../websocket-guard.ts). */
  contextRules(): string | null {
    return this.getMeta<string>("context_rules");
  }

  setContextRules(key: string): void {
    this.setMeta("context_rules", key);
  }

  /** How many browsers this conversation has launched. */
  launches(): number {
    return this.getMeta<number>("launches") ?? 0;
  }

  lastUsed(): number | null {
    return this.getMeta<number>("last_used");
  }

  touch(): void {
    this.setMeta("last_used", Date.now());
  }

  cookies(): SavedCookie[] {
    return this.getMeta<SavedCookie[]>("cookies") ?? [];
  }

  storage(): SavedStorage {
    return this.getMeta<SavedStorage>("storage") ?? {};
  }

  /** Saves what a rebuilt session needs to look the same. */
  saveState(cookies: SavedCookie[], storage: SavedStorage): void {
    this.setMeta("cookies", cookies);
    this.setMeta("storage", { ...this.storage(), ...storage });
  }

  /** The sites this browser started with from its profile; null until the profile was loaded. */
  profileSites(): string[] | null {
    return this.getMeta<string[]>("profile_sites");
  }

  /** Starts the saved state from a profile's (once, before the first launch uses it). */
  seedFromProfile(cookies: SavedCookie[], storage: SavedStorage, sites: string[]): void {
    this.setMeta("cookies", cookies);
    this.setMeta("storage", storage);
    this.setMeta("profile_sites", sites);
  }

  /** Until when a take-over holds the context (not closed for idleness, not taken), or null. */
  pinnedUntil(): number | null {
    return this.getMeta<number>("pinned_until");
  }

  pinUntil(at: number): void {
    this.setMeta("pinned_until", at);
  }

  /** Names of secrets typed in this browser (their values are redacted from results). */
  typedSecrets(): string[] {
    return this.getMeta<string[]>("typed_secrets") ?? [];
  }

  addTypedSecret(name: string): void {
    const names = new Set(this.typedSecrets()).add(name);
    this.setMeta("typed_secrets", [...names]);
  }

  /** Records that a tab's document (by its loader id) holds a typed secret or ran a model's script. */
  markDocument(tabId: number, mark: "secret" | "script", documentId: string): void {
    const key = `${mark}_documents`;
    this.setMeta(key, { ...this.getMeta<Record<string, string>>(key), [tabId]: documentId });
  }

  /** The document of a tab last marked so, or null. */
  markedDocument(tabId: number, mark: "secret" | "script"): string | null {
    return this.getMeta<Record<string, string>>(`${mark}_documents`)?.[tabId] ?? null;
  }

  private getMeta<T>(key: string): T | null {
    const row = this.sql
      .exec<{ value: string }>(
        "SELECT value FROM fleet_tab_meta WHERE scope = ? AND key = ?",
        this.scope,
        key,
      )
      .toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  private setMeta(key: string, value: unknown): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO fleet_tab_meta (scope, key, value) VALUES (?, ?, ?)",
      this.scope,
      key,
      JSON.stringify(value),
    );
  }
}

function toRecord({ scope: _, ...r }: Row): TabRecord {
  return { ...r, active: r.active === 1 };
}
