/**
 * The outline of a page outside its main region: one line per part (header, navigation,
 * sidebars, footer, dialogs, other sections) saying what it holds, with the selector that reads
 * it (`- navigation {#menu}: 48 links: Home, World, Sport, …`).
 */
import { isReadable, textOf, type WElement } from "./dom";
import { CHROME_WORDS, type PageMeasure } from "./main-region";
import type { SelectorMaker } from "./selectors";

/** At most this many parts are listed; the rest are counted in a last line. */
export const MAX_OUTLINE_PARTS = 6;
/** A part with less visible text than this is left out. */
const MIN_PART_CHARS = 10;
/** How many link texts a line names (when the part has no heading), and how long each may be. */
const SAMPLE_LINKS = 2;
const SAMPLE_CHARS = 20;
/** How much of a part's heading or text a line quotes. */
const QUOTE_CHARS = 40;
/** Parts found by their tag or role, outermost kept. */
const LANDMARKS =
  "header, nav, aside, footer, form, dialog, [role=banner], [role=navigation], [role=complementary], [role=contentinfo], [role=search], [role=dialog], [role=alertdialog], [aria-modal=true]";

/** What kind of part an element is, by its tag, role or label. */
function kindOf(el: WElement): string {
  const tag = el.tagName.toLowerCase();
  const role = el.getAttribute("role") ?? "";
  if (tag === "dialog" || /dialog/.test(role) || el.getAttribute("aria-modal") === "true") return "dialog";
  if (tag === "nav" || role === "navigation") return "navigation";
  if (tag === "aside" || role === "complementary") return "sidebar";
  if (tag === "footer" || role === "contentinfo") return "footer";
  if (tag === "header" || role === "banner") return "header";
  if (role === "search") return "search";
  if (tag === "form") return "form";
  const label = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  const word = CHROME_WORDS.exec(label)?.[2]?.toLowerCase() ?? "";
  if (/^(nav|navbar|navigation|menu|breadcrumbs?)$/.test(word)) return "navigation";
  if (/^comments?$/.test(word)) return "comments";
  if (word === "sidebar") return "sidebar";
  if (word === "footer") return "footer";
  if (/^(modal|popup|cookies?|consent)$/.test(word)) return "dialog";
  return "section";
}

/** The text cut at a word boundary to at most `max` characters, `…` marking a cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** One line saying what a part holds: its heading, its controls and a few of its link texts. */
function describe(el: WElement, sel: string, chars: number): string {
  const heading = el.querySelector("h1, h2, h3, h4, h5, h6, legend, [role=heading]");
  const title = heading && isReadable(heading) ? textOf(heading).slice(0, QUOTE_CHARS) : "";
  const links = Array.from(el.querySelectorAll("a[href]")).filter(isReadable);
  const count = (s: string) => Array.from(el.querySelectorAll(s)).filter(isReadable).length;
  const buttons = count("button, input[type=submit], input[type=button], [role=button]");
  const fields = count("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select");
  const facts: string[] = [];
  if (title) facts.push(`"${title}"`);
  if (links.length) {
    const names = title
      ? []
      : links
          .slice(0, SAMPLE_LINKS)
          .map((a) => clip(textOf(a), SAMPLE_CHARS))
          .filter(Boolean);
    facts.push(
      `${links.length} link${links.length === 1 ? "" : "s"}${names.length ? ` (${names.join(", ")}${links.length > names.length ? ", …" : ""})` : ""}`,
    );
  }
  if (buttons) facts.push(`${buttons} button${buttons === 1 ? "" : "s"}`);
  if (fields) facts.push(`${fields} field${fields === 1 ? "" : "s"}`);
  if (!links.length && !title) {
    const text = textOf(el);
    facts.push(
      text.length <= QUOTE_CHARS ? `"${text}"` : `"${text.slice(0, QUOTE_CHARS)}…" (${chars} characters)`,
    );
  }
  return `- ${kindOf(el)} {${sel}}: ${facts.join("; ")}`;
}

/** The parts of the page outside `region`. */
export function outsideParts(root: WElement, region: WElement, m: PageMeasure): WElement[] {
  const shown = (el: WElement) => (m.text.get(el) ?? 0) >= MIN_PART_CHARS;
  const apart = (el: WElement) => !el.contains(region) && !region.contains(el);
  const marks = Array.from(root.querySelectorAll(LANDMARKS)).filter((el) => apart(el) && shown(el));
  const outer = marks.filter((el) => !marks.some((o) => o !== el && o.contains(el)));
  const parts = new Set(outer);
  // Blocks beside the region's ancestors that no landmark covers (a div of links, a comments block).
  for (let n: WElement = region; n !== root && n.parentElement; n = n.parentElement) {
    const siblings = n.parentElement.children;
    for (let i = 0; i < siblings.length; i++) {
      const s = siblings[i];
      if (s === n || !shown(s) || outer.some((o) => o.contains(s) || s.contains(o))) continue;
      parts.add(s);
    }
  }
  return [...parts];
}

/** The outline's lines (empty when nothing lies outside the region); `folded` are parts left out inside it. */
export function outline(
  root: WElement,
  region: WElement,
  m: PageMeasure,
  selectors: SelectorMaker,
  folded: WElement[] = [],
): string {
  const found = new Set([...outsideParts(root, region, m), ...folded]);
  const parts = Array.from(root.querySelectorAll("*")).filter((el) => found.has(el));
  if (parts.length === 0) return "";
  const lines = parts
    .slice(0, MAX_OUTLINE_PARTS)
    .map((el) => describe(el, selectors.of(el, true), m.text.get(el) ?? 0));
  if (parts.length > MAX_OUTLINE_PARTS) lines.push(`- … and ${parts.length - MAX_OUTLINE_PARTS} more parts`);
  return `Elsewhere (pass a selector to read one):\n${lines.join("\n")}`;
}
