/** The widget's options, read from its `<script data-…>` tag. */
import { type Language, type Strings, stringsFor } from "./i18n";

/** A CSS colour we accept from a data attribute: hex, rgb()/hsl() or a named colour. */
const COLOUR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([0-9.,%\s/]+\)|[a-z]{3,20})$/i;

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
}

function colour(raw: string | undefined): string | null {
  return raw && COLOUR.test(raw.trim()) ? raw.trim() : null;
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
  };
}
