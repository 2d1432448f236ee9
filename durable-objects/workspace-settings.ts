/**
 * The workspace's settings in its SQLite `settings` table, one row per section: `search`
 * (engine and keys), `agent` (defaults for new conversations), `widget` (its look) and `policy`
 * (allowed_domains, model_vision).
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
  AgentPolicy,
  DEFAULT_AGENT_POLICY,
  DEFAULT_SEARCH_SETTINGS,
  missingForEngine,
  SearchSettings,
  type SettingsUpdate,
  type SettingsView,
  settingsView,
} from "../shared/settings";
import { fail, ok, type RpcResult } from "./rpc-result";

type Section = "search" | "agent" | "widget" | "policy";

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

  policy(): AgentPolicy {
    return readSection(this.sql, "policy", AgentPolicy, DEFAULT_AGENT_POLICY);
  }

  view(): SettingsView {
    return settingsView(this.search(), this.agent(), this.widget(), this.policy());
  }

  /** Applies a partial update of any sections; nothing is written unless all of it is valid. */
  update(update: SettingsUpdate): RpcResult<SettingsView> {
    const search = SearchSettings.safeParse({ ...this.search(), ...update.search });
    const agent = AgentSchema.safeParse({ ...this.agent(), ...update.agent });
    const widget = WidgetSchema.safeParse({ ...this.widget(), ...update.widget });
    const current = this.policy();
    const policy = AgentPolicy.safeParse({
      allowed_domains:
        update.allowed_domains === undefined ? current.allowed_domains : update.allowed_domains,
      model_vision: update.model_vision ?? current.model_vision,
    });
    for (const checked of [search, agent, widget, policy])
      if (!checked.success)
        return fail(400, "invalid_settings", checked.error.issues.map((i) => i.message).join("; "));
    if (!search.success || !agent.success || !widget.success || !policy.success)
      return fail(400, "invalid_settings", "The settings are not valid.");
    const missing = missingForEngine(search.data);
    if (missing) return fail(400, "invalid_settings", missing);
    if (update.search) writeSection(this.sql, "search", search.data);
    if (update.agent) writeSection(this.sql, "agent", agent.data);
    if (update.widget) writeSection(this.sql, "widget", widget.data);
    if (update.allowed_domains !== undefined || update.model_vision !== undefined)
      writeSection(this.sql, "policy", policy.data);
    return ok(settingsView(search.data, agent.data, widget.data, policy.data));
  }
}
