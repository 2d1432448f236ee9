/**
 * The workspace's settings in its SQLite `settings` table, one row per section: `search`
 * (engine and keys), `agent` (defaults for new conversations) and `widget` (its look).
 */
import {
  AgentSettings as AgentSchema,
  type AgentSettings,
  DEFAULT_AGENT_SETTINGS,
  DEFAULT_WIDGET_SETTINGS,
  WidgetSettings as WidgetSchema,
  type WidgetSettings,
} from "../shared/agent-settings";
import {
  DEFAULT_SEARCH_SETTINGS,
  missingForEngine,
  SearchSettings,
  type SettingsUpdate,
  type SettingsView,
  settingsView,
} from "../shared/settings";
import { fail, ok, type RpcResult } from "./rpc-result";

type Section = "search" | "agent" | "widget";

function readSection<T>(
  sql: SqlStorage,
  key: Section,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  defaults: T,
): T {
  const row = sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0];
  const parsed = row ? schema.safeParse({ ...defaults, ...JSON.parse(row.value) }) : null;
  return parsed?.success ? parsed.data : { ...defaults };
}

function writeSection(sql: SqlStorage, key: Section, value: object): void {
  sql.exec(
    "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
    key,
    JSON.stringify({ version: 1, ...value }),
  );
}

/** Reads and writes one workspace's settings. */
export class WorkspaceSettings {
  constructor(private readonly sql: SqlStorage) {}

  search(): SearchSettings {
    return readSection(this.sql, "search", SearchSettings, DEFAULT_SEARCH_SETTINGS);
  }

  agent(): AgentSettings {
    return readSection(this.sql, "agent", AgentSchema, DEFAULT_AGENT_SETTINGS);
  }

  widget(): WidgetSettings {
    return readSection(this.sql, "widget", WidgetSchema, DEFAULT_WIDGET_SETTINGS);
  }

  view(): SettingsView {
    return settingsView(this.search(), this.agent(), this.widget());
  }

  /** Applies a partial update of any sections; nothing is written unless all of it is valid. */
  update(update: SettingsUpdate): RpcResult<SettingsView> {
    const search = SearchSettings.safeParse({ ...this.search(), ...update.search });
    const agent = AgentSchema.safeParse({ ...this.agent(), ...update.agent });
    const widget = WidgetSchema.safeParse({ ...this.widget(), ...update.widget });
    for (const checked of [search, agent, widget])
      if (!checked.success)
        return fail(400, "invalid_settings", checked.error.issues.map((i) => i.message).join("; "));
    if (!search.success || !agent.success || !widget.success) return fail(400, "invalid_settings", "invalid");
    const missing = missingForEngine(search.data);
    if (missing) return fail(400, "invalid_settings", missing);
    if (update.search) writeSection(this.sql, "search", search.data);
    if (update.agent) writeSection(this.sql, "agent", agent.data);
    if (update.widget) writeSection(this.sql, "widget", widget.data);
    return ok(settingsView(search.data, agent.data, widget.data));
  }
}
