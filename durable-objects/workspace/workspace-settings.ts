/**
 * The workspace's settings in its SQLite `settings` table, one row per section: `search`
 * (engine and keys), `agent` (defaults for new conversations), `widget` (its look) and `policy`
 * (allowed_domains, model_vision, approvals) and `cost`; each row carries its schema version
 * (settings-versions.ts) and is migrated on read, never silently reset.
 */
import { z } from "@hono/zod-openapi";
import {
  AgentSettings,
  DEFAULT_AGENT_SETTINGS,
  DEFAULT_WIDGET_SETTINGS,
  WidgetSettings,
} from "../../schemas/agent-settings";
import { CostSettings, DEFAULT_COST_SETTINGS, type ModelPrices } from "../../schemas/cost";
import {
  AgentPolicy,
  DEFAULT_AGENT_POLICY,
  DEFAULT_SEARCH_SETTINGS,
  missingForEngine,
  SearchSettings,
  type SettingsUpdate,
  type SettingsView,
  settingsView,
} from "../../schemas/settings";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { dropMovedKeys } from "./search-credentials";
import {
  decodeSection,
  encodeSection,
  reportUnreadable,
  type Section,
  type SectionRead,
} from "./settings-versions";

/** Each section's schema and defaults. */
const SECTIONS = {
  search: [SearchSettings, DEFAULT_SEARCH_SETTINGS],
  agent: [AgentSettings, DEFAULT_AGENT_SETTINGS],
  widget: [WidgetSettings, DEFAULT_WIDGET_SETTINGS],
  policy: [AgentPolicy, DEFAULT_AGENT_POLICY],
  cost: [CostSettings, DEFAULT_COST_SETTINGS],
} as const satisfies Record<Section, readonly [z.ZodObject, object]>;

type Value<S extends Section> = z.infer<(typeof SECTIONS)[S][0]>;

function storedRow(sql: SqlStorage, key: Section): string | null {
  return (
    sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0]?.value ?? null
  );
}

/** One stored row of a section, migrated and validated (fields that fail take their defaults). */
export function decodeStored<S extends Section>(key: S, text: string): SectionRead<Value<S>> {
  const [schema, defaults] = SECTIONS[key];
  return decodeSection(key, text, schema, defaults as Record<string, unknown>) as SectionRead<Value<S>>;
}

function readSection<S extends Section>(sql: SqlStorage, key: S): Value<S> {
  const text = storedRow(sql, key);
  if (text === null) return { ...SECTIONS[key][1] } as Value<S>;
  const read = decodeStored(key, text);
  if (read.problem) reportUnreadable(key, text, read.problem);
  return read.value;
}

/** Writes a section; a stored row that could not be read whole is archived first, never lost. */
function writeSection(sql: SqlStorage, key: Section, value: object): void {
  const text = storedRow(sql, key);
  const problem = text === null ? null : decodeStored(key, text).problem;
  if (problem)
    sql.exec(
      "INSERT INTO settings_archive (key, value, problem, archived_at) VALUES (?, ?, ?, ?)",
      key,
      text,
      problem,
      Date.now(),
    );
  sql.exec("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", key, encodeSection(value));
}

/** Creates the settings tables: the object's schema steps call it. */
export function createSettingsTables(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  // Rows that could not be read whole, kept when a save replaces them.
  sql.exec(`CREATE TABLE IF NOT EXISTS settings_archive (
    id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, value TEXT NOT NULL,
    problem TEXT NOT NULL, archived_at INTEGER NOT NULL)`);
}

/** Reads and writes one workspace's settings. */
export class WorkspaceSettings {
  constructor(private readonly sql: SqlStorage) {}

  search(): SearchSettings {
    return readSection(this.sql, "search");
  }

  agent(): AgentSettings {
    return readSection(this.sql, "agent");
  }

  widget(): WidgetSettings {
    return readSection(this.sql, "widget");
  }

  policy(): AgentPolicy {
    return readSection(this.sql, "policy");
  }

  cost(): CostSettings {
    return readSection(this.sql, "cost");
  }

  view(): SettingsView {
    return settingsView(this.search(), this.agent(), this.widget(), this.policy(), this.cost());
  }

  /**
   * Applies a partial update of any sections; nothing is written unless all of it is valid. A
   * search key whose engine's base URL moves to another origin without the key is dropped.
   */
  update(update: SettingsUpdate): RpcResult<SettingsView & { credentials_cleared: boolean }> {
    const current = this.policy();
    let next: {
      search: SearchSettings;
      agent: AgentSettings;
      widget: WidgetSettings;
      policy: AgentPolicy;
      cost: CostSettings;
    };
    try {
      next = {
        search: SearchSettings.parse({ ...this.search(), ...update.search }),
        agent: AgentSettings.parse({ ...this.agent(), ...update.agent }),
        widget: WidgetSettings.parse({ ...this.widget(), ...update.widget }),
        policy: AgentPolicy.parse({
          allowed_domains:
            update.allowed_domains === undefined ? current.allowed_domains : update.allowed_domains,
          model_vision: update.model_vision ?? current.model_vision,
          approvals: update.approvals === undefined ? current.approvals : (update.approvals ?? {}),
        }),
        cost: this.nextCost(update),
      };
    } catch (err) {
      if (!(err instanceof z.ZodError)) throw err;
      return fail(400, "invalid_settings", err.issues.map((i) => i.message).join("; "));
    }
    const missing = missingForEngine(next.search);
    if (missing) return fail(400, "invalid_settings", missing);
    const moved = dropMovedKeys(this.search(), next.search, update.search);
    if (moved.problem) return fail(400, "invalid_settings", moved.problem);
    next.search = moved.search;
    if (update.search) writeSection(this.sql, "search", next.search);
    if (update.agent) writeSection(this.sql, "agent", next.agent);
    if (update.widget) writeSection(this.sql, "widget", next.widget);
    if (
      update.allowed_domains !== undefined ||
      update.model_vision !== undefined ||
      update.approvals !== undefined
    )
      writeSection(this.sql, "policy", next.policy);
    if (update.model_prices !== undefined || update.daily_budget_usd !== undefined)
      writeSection(this.sql, "cost", next.cost);
    return ok({
      ...settingsView(next.search, next.agent, next.widget, next.policy, next.cost),
      credentials_cleared: moved.cleared,
    });
  }

  /** The cost settings after an update: prices merged per model (null removes one), budget replaced. */
  private nextCost(update: SettingsUpdate): CostSettings {
    const current = this.cost();
    let prices: ModelPrices = update.model_prices === null ? {} : { ...current.model_prices };
    for (const [model, price] of Object.entries(update.model_prices ?? {})) {
      if (price === null) delete prices[model];
      else prices = { ...prices, [model]: price };
    }
    return CostSettings.parse({
      model_prices: prices,
      daily_budget_usd:
        update.daily_budget_usd === undefined ? current.daily_budget_usd : update.daily_budget_usd,
    });
  }
}
