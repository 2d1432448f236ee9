/** The widget's options, read from its `<script data-…>` tag. */
import { CSS_COLOUR } from "../../schemas/patterns";
import { type Language, type Strings, stringsFor } from "./i18n";

/** Everything the widget is configured with. */
export interface WidgetConfig {
  key: string;
  api: string;
  position: "right" | "left";
  color: string | null;
  textColor: string | null;
  title: string;
  greeting: string;
  lang: Language;
  strings: Strings;
  startOpen: boolean;
  /** The options the script tag set itself (these win over the dashboard's widget settings). */
  explicit: Set<"title" | "greeting" | "color" | "language" | "position">;
}

/** The widget settings from the dashboard (`GET /v1/widget/config`); null = default. */
export interface ServerWidgetSettings {
  title?: string | null;
  greeting?: string | null;
  color?: string | null;
  language?: string | null;
  position?: string | null;
}

function colour(raw: string | undefined): string | null {
  return raw && CSS_COLOUR.test(raw.trim()) ? raw.trim() : null;
}

/** Reads the config from the script element; null when there is no usable key. */
export function readConfig(script: HTMLScriptElement | null): WidgetConfig | null {
  if (!script) return null;
  const d = script.dataset;
  const key = d.key?.trim() ?? "";
  if (!/^pk_[A-Za-z0-9_-]+$/.test(key)) return null;
  let api: string;
  try {
    api = new URL(d.api ?? script.src, location.href).origin;
  } catch {
    return null;
  }
  const { lang, strings } = stringsFor(d.language ?? null);
  return {
    key,
    api,
    position: d.position === "bottom-left" || d.position === "left" ? "left" : "right",
    color: colour(d.color),
    textColor: colour(d.textColor),
    title: (d.title ?? strings.title).slice(0, 200),
    greeting: (d.greeting ?? strings.greeting).slice(0, 2000),
    lang,
    strings,
    startOpen: d.open === "true",
    explicit: new Set(
      (["title", "greeting", "color", "language", "position"] as const).filter((k) => d[k] !== undefined),
    ),
  };
}

/** The config with the dashboard's settings filled in wherever the script tag said nothing. */
export function withServerSettings(cfg: WidgetConfig, s: ServerWidgetSettings): WidgetConfig {
  const next = { ...cfg };
  const use = (k: "title" | "greeting" | "color" | "language" | "position", v: unknown): v is string =>
    !cfg.explicit.has(k) && typeof v === "string" && v.length > 0;
  if (use("language", s.language)) {
    const { lang, strings } = stringsFor(s.language);
    Object.assign(next, { lang, strings });
    if (!cfg.explicit.has("title")) next.title = strings.title;
    if (!cfg.explicit.has("greeting")) next.greeting = strings.greeting;
  }
  if (use("title", s.title)) next.title = s.title.slice(0, 200);
  if (use("greeting", s.greeting)) next.greeting = s.greeting.slice(0, 2000);
  if (use("color", s.color)) next.color = colour(s.color);
  if (use("position", s.position)) next.position = s.position === "left" ? "left" : "right";
  return next;
}

/** Fetches the dashboard's widget settings; any failure (Cirrus down, slow, refused) means none. */
export async function fetchServerSettings(
  cfg: WidgetConfig,
  timeoutMs = 2500,
): Promise<ServerWidgetSettings> {
  try {
    const res = await fetch(`${cfg.api}/v1/widget/config`, {
      headers: { authorization: `Bearer ${cfg.key}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok ? ((await res.json()) as ServerWidgetSettings) : {};
  } catch {
    return {};
  }
}
