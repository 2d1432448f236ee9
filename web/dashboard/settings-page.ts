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

/** The controls of the settings form. */
interface Controls {
  model: HTMLInputElement;
  instructions: HTMLTextAreaElement;
  tools: HTMLInputElement;
  timezone: HTMLInputElement;
  domains: HTMLTextAreaElement;
  vision: HTMLSelectElement;
  engine: HTMLSelectElement;
  searxng: HTMLInputElement;
  cse: HTMLInputElement;
  keys: (readonly [(typeof KEY_FIELDS)[number], HTMLInputElement])[];
  widgetInputs: (readonly [WidgetField, HTMLInputElement | HTMLSelectElement])[];
}

/** The Agent settings page: the current settings in their form. */
export async function settingsPage(main: HTMLElement): Promise<undefined> {
  main.append(h("h1", {}, "Agent settings"));
  let settings: SettingsView;
  try {
    settings = await api<SettingsView>("/v1/settings");
  } catch (err) {
    main.append(notice(failureText(err), true));
    return undefined;
  }
  main.append(settingsForm(settingsControls(settings)));
  return undefined;
}

/** The form's controls, filled from `settings`. */
function settingsControls(settings: SettingsView): Controls {
  const { agent, search, widget } = settings;
  return {
    model: h("input", { value: agent.model ?? "", placeholder: "deployment default" }),
    instructions: h("textarea", { rows: "6" }, agent.instructions ?? ""),
    tools: h("input", { value: (agent.allowed_tools ?? []).join(", "), placeholder: "all tools" }),
    timezone: h("input", { value: agent.timezone ?? "", placeholder: "UTC" }),
    domains: h("textarea", { rows: "3", placeholder: "any" }, (settings.allowed_domains ?? []).join("\n")),
    vision: select(["auto", "true", "false"], String(settings.model_vision)),
    engine: select(ENGINES, search.engine),
    searxng: h("input", { value: search.searxng_url ?? "", placeholder: "https://searx.example" }),
    cse: h("input", { value: search.google_cse_id ?? "" }),
    keys: KEY_FIELDS.map((name) => [name, keyInput(search[name])] as const),
    widgetInputs: WIDGET_FIELDS.map((name) => {
      const choices = WIDGET_CHOICES[name];
      const control = choices
        ? select(choices, widget[name] ?? "")
        : h("input", { value: widget[name] ?? "" });
      return [name, control] as const;
    }),
  };
}

/** The form with its agent, search and widget sections; submitting saves and says how it went. */
function settingsForm(c: Controls): HTMLFormElement {
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card" },
    ...agentSection(c),
    ...searchSection(c),
    h("h2", {}, "Widget"),
    h("div", { class: "grid" }, ...c.widgetInputs.map(([name, control]) => field(`Widget ${name}`, control))),
    h("p", {}, h("button", { type: "submit" }, "Save settings")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const update = settingsUpdate(c);
    clear(out);
    try {
      const settings = await api<SettingsView>("/v1/settings", { method: "PUT", json: update });
      for (const [name, input] of c.keys) {
        input.value = "";
        input.placeholder = settings.search[name].set ? "set — leave empty to keep" : "not set";
      }
      out.append(notice("Settings saved."));
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  return form;
}

/** The Agent section: model, instructions, tools, time zone, vision and allowed domains. */
function agentSection(c: Controls): HTMLElement[] {
  return [
    h("h2", {}, "Agent"),
    field("Model", c.model, "Default model of new conversations; empty for the deployment's."),
    field("Instructions", c.instructions),
    field("Tools allowed", c.tools, "Comma-separated tool names; empty for all. `finish` is always allowed."),
    field(
      "Time zone",
      c.timezone,
      "IANA name such as Europe/Berlin; the agent is told the date and time in it.",
    ),
    field("Model can view images", c.vision, "auto: guessed from the model name."),
    field(
      "Allowed domains",
      c.domains,
      "One host per line (subdomains included); the browser and web_fetch may go nowhere else. Empty for any.",
    ),
  ];
}

/** The Web search section: the engine, its URL or id, and the write-only keys. */
function searchSection(c: Controls): HTMLElement[] {
  return [
    h("h2", {}, "Web search"),
    h(
      "div",
      { class: "grid" },
      field("Search engine", c.engine),
      field("SearXNG URL", c.searxng),
      field("Google CSE id", c.cse),
      ...c.keys.map(([name, input]) => field(name.replace(/_/g, " "), input, "Write-only.")),
    ),
  ];
}

/** The `PUT /v1/settings` body from the form; a key left empty is kept as it is. */
function settingsUpdate(c: Controls): Record<string, unknown> {
  const allowed = c.tools.value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const domainList = c.domains.value
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);
  const searchUpdate: Record<string, string | null> = {
    engine: c.engine.value,
    searxng_url: orNull(c.searxng.value),
    google_cse_id: orNull(c.cse.value),
  };
  for (const [name, input] of c.keys) if (input.value) searchUpdate[name] = input.value;
  return {
    agent: {
      model: orNull(c.model.value),
      instructions: orNull(c.instructions.value),
      allowed_tools: allowed.length ? allowed : null,
      timezone: orNull(c.timezone.value),
    },
    search: searchUpdate,
    allowed_domains: domainList.length ? domainList : null,
    model_vision: c.vision.value === "auto" ? "auto" : c.vision.value === "true",
    widget: Object.fromEntries(c.widgetInputs.map(([name, control]) => [name, orNull(control.value)])),
  };
}
