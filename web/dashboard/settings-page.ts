/**
 * Agent settings (`GET/PUT /v1/settings`): the agent defaults for new conversations (model,
 * instructions, tools allowed), the search engine and its keys (write-only), the widget's look.
 */
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { failureText, field, notice } from "./ui";

type KeyMarker = { set: boolean };
type Nullable = string | null;

/** `GET /v1/settings` as this page reads it. */
interface SettingsView {
  agent: { model: Nullable; instructions: Nullable; allowed_tools: string[] | null; timezone?: Nullable };
  search: {
    engine: string;
    searxng_url: Nullable;
    google_cse_id: Nullable;
    bing_api_key: KeyMarker;
    google_api_key: KeyMarker;
    brave_api_key: KeyMarker;
  };
  widget: Record<WidgetField, Nullable>;
  allowed_domains: string[] | null;
  model_vision: boolean | "auto";
}

const ENGINES = ["duckduckgo", "bing", "baidu", "google", "brave", "searxng"] as const;
const KEY_FIELDS = ["bing_api_key", "google_api_key", "brave_api_key"] as const;
const WIDGET_FIELDS = ["title", "greeting", "color", "language", "position"] as const;
type WidgetField = (typeof WIDGET_FIELDS)[number];
const WIDGET_CHOICES: Partial<Record<WidgetField, string[]>> = {
  language: ["", "en", "zh", "es"],
  position: ["", "right", "left"],
};

const orNull = (v: string): string | null => v.trim() || null;

function select(options: readonly string[], value: string): HTMLSelectElement {
  return h(
    "select",
    {},
    ...options.map((o) => h("option", { value: o, selected: o === value }, o || "default")),
  );
}

function keyInput(marker: KeyMarker): HTMLInputElement {
  return h("input", {
    type: "password",
    autocomplete: "off",
    placeholder: marker.set ? "set — leave empty to keep" : "not set",
  });
}

/** The settings form. */
export async function settingsPage(main: HTMLElement): Promise<undefined> {
  main.append(h("h1", {}, "Agent settings"));
  let settings: SettingsView;
  try {
    settings = await api<SettingsView>("/v1/settings");
  } catch (err) {
    main.append(notice(failureText(err), true));
    return undefined;
  }
  const { agent, search, widget } = settings;
  const model = h("input", { value: agent.model ?? "", placeholder: "deployment default" });
  const instructions = h("textarea", { rows: "6" }, agent.instructions ?? "");
  const tools = h("input", { value: (agent.allowed_tools ?? []).join(", "), placeholder: "all tools" });
  const timezone = h("input", { value: agent.timezone ?? "", placeholder: "UTC" });
  const domains = h(
    "textarea",
    { rows: "3", placeholder: "any" },
    (settings.allowed_domains ?? []).join("\n"),
  );
  const vision = select(["auto", "true", "false"], String(settings.model_vision));
  const engine = select(ENGINES, search.engine);
  const searxng = h("input", { value: search.searxng_url ?? "", placeholder: "https://searx.example" });
  const cse = h("input", { value: search.google_cse_id ?? "" });
  const keys = KEY_FIELDS.map((name) => [name, keyInput(search[name])] as const);
  const widgetInputs = WIDGET_FIELDS.map((name) => {
    const choices = WIDGET_CHOICES[name];
    const control = choices ? select(choices, widget[name] ?? "") : h("input", { value: widget[name] ?? "" });
    return [name, control] as const;
  });
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, "Agent"),
    field("Model", model, "Default model of new conversations; empty for the deployment's."),
    field("Instructions", instructions),
    field("Tools allowed", tools, "Comma-separated tool names; empty for all. `finish` is always allowed."),
    field(
      "Time zone",
      timezone,
      "IANA name such as Europe/Berlin; the agent is told the date and time in it.",
    ),
    field("Model can view images", vision, "auto: guessed from the model name."),
    field(
      "Allowed domains",
      domains,
      "One host per line (subdomains included); the browser and web_fetch may go nowhere else. Empty for any.",
    ),
    h("h2", {}, "Web search"),
    h(
      "div",
      { class: "grid" },
      field("Search engine", engine),
      field("SearXNG URL", searxng),
      field("Google CSE id", cse),
      ...keys.map(([name, input]) => field(name.replace(/_/g, " "), input, "Write-only.")),
    ),
    h("h2", {}, "Widget"),
    h("div", { class: "grid" }, ...widgetInputs.map(([name, control]) => field(`Widget ${name}`, control))),
    h("p", {}, h("button", { type: "submit" }, "Save settings")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const allowed = tools.value
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    const domainList = domains.value
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
    const searchUpdate: Record<string, string | null> = {
      engine: engine.value,
      searxng_url: orNull(searxng.value),
      google_cse_id: orNull(cse.value),
    };
    for (const [name, input] of keys) if (input.value) searchUpdate[name] = input.value;
    const update = {
      agent: {
        model: orNull(model.value),
        instructions: orNull(instructions.value),
        allowed_tools: allowed.length ? allowed : null,
        timezone: orNull(timezone.value),
      },
      search: searchUpdate,
      allowed_domains: domainList.length ? domainList : null,
      model_vision: vision.value === "auto" ? "auto" : vision.value === "true",
      widget: Object.fromEntries(widgetInputs.map(([name, control]) => [name, orNull(control.value)])),
    };
    clear(out);
    try {
      settings = await api<SettingsView>("/v1/settings", { method: "PUT", json: update });
      for (const [name, input] of keys) {
        input.value = "";
        input.placeholder = settings.search[name].set ? "set — leave empty to keep" : "not set";
      }
      out.append(notice("Settings saved."));
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  main.append(form);
  return undefined;
}
