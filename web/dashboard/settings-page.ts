/**
 * Agent settings (`GET/PUT /v1/settings`): model, instructions, search engine and its key
 * (write-only), allowed tools, widget options. Degrades to a notice while the API is missing.
 */
import { clear, h } from "../shared/dom";
import { ApiFailure, api } from "./client";
import { failureText, field, notice } from "./ui";

/** The settings fields this page edits; anything else the API returns is kept as it is. */
interface Settings {
  model?: string | null;
  instructions?: string | null;
  search_engine?: string | null;
  search_api_key?: string;
  allowed_tools?: string[] | null;
  widget?: Record<string, string> | null;
  [other: string]: unknown;
}

const WIDGET_FIELDS = ["title", "greeting", "color", "language", "position"] as const;

/** Sets a text field; an emptied field becomes null only if the API had it, else stays absent. */
function setField(next: Settings, key: "model" | "instructions" | "search_engine", value: string): void {
  if (value) next[key] = value;
  else if (next[key] !== undefined && next[key] !== null) next[key] = null;
}

/** The settings form. */
export async function settingsPage(main: HTMLElement): Promise<undefined> {
  main.append(h("h1", {}, "Agent settings"));
  let settings: Settings;
  try {
    settings = await api<Settings>("/v1/settings");
  } catch (err) {
    const missing = err instanceof ApiFailure && err.status === 404;
    main.append(
      notice(missing ? "Settings are not available yet on this Cirrus." : failureText(err), !missing),
    );
    return undefined;
  }
  const model = h("input", { value: settings.model ?? "" });
  const instructions = h("textarea", {}, settings.instructions ?? "");
  const engine = h("input", { value: settings.search_engine ?? "", list: "engines" });
  const engines = h(
    "datalist",
    { id: "engines" },
    ...["google", "bing", "brave", "tavily", "searxng"].map((e) => h("option", { value: e })),
  );
  const searchKey = h("input", { type: "password", autocomplete: "off", placeholder: "unchanged" });
  const tools = h("input", { value: (settings.allowed_tools ?? []).join(", ") });
  const widget = settings.widget ?? {};
  const widgetInputs = WIDGET_FIELDS.map(
    (name) => [name, h("input", { value: widget[name] ?? "" })] as const,
  );
  const out = h("div");
  const form = h(
    "form",
    { class: "card" },
    field("Model", model),
    field("Instructions", instructions),
    h(
      "div",
      { class: "grid" },
      field("Search engine", engine),
      field("Search API key", searchKey, "Write-only: leave empty to keep the current key."),
    ),
    engines,
    field("Tools allowed", tools, "Comma-separated tool names; empty for all."),
    h("h2", {}, "Widget"),
    h("div", { class: "grid" }, ...widgetInputs.map(([name, input]) => field(name, input))),
    h("p", {}, h("button", { type: "submit" }, "Save settings")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const next: Settings = { ...settings };
    setField(next, "model", model.value.trim());
    setField(next, "instructions", instructions.value);
    setField(next, "search_engine", engine.value.trim());
    const allowed = tools.value
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (allowed.length || "allowed_tools" in settings) next.allowed_tools = allowed.length ? allowed : null;
    const widgetValues = Object.fromEntries(
      widgetInputs.map(([name, input]) => [name, input.value.trim()]).filter(([, v]) => v),
    );
    if (Object.keys(widgetValues).length || "widget" in settings) next.widget = widgetValues;
    if (searchKey.value) next.search_api_key = searchKey.value;
    clear(out);
    try {
      settings = await api<Settings>("/v1/settings", { method: "PUT", json: next });
      searchKey.value = "";
      out.append(notice("Settings saved."));
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  main.append(form);
  return undefined;
}
