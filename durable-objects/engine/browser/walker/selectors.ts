/**
 * Short CSS selectors that resolve to exactly one element: `#id` when the id is unique, else a
 * `tag[attr="value"]` or a tag that is unique, else an attribute the walker stamps on the element
 * (`[data-c="12"]`), which stays while the page stays (a later read gives the same one).
 */
import type { WDocument, WElement } from "./dom";

/** The attribute stamped on elements that have no short unique selector. */
export const STAMP_ATTR = "data-c";
/** A selector longer than this is not short: the element is stamped instead. */
export const MAX_SELECTOR_CHARS = 40;
/** Attributes that name an element on purpose, tried in order after the id. */
const NAMING_ATTRS = ["name", "data-testid", "aria-label", "href"];

/** Escapes a CSS identifier (CSS.escape of the CSSOM spec, for DOMs that lack it). */
export function cssEscape(value: string): string {
  const native = (globalThis as { CSS?: { escape?: (s: string) => string } }).CSS?.escape;
  if (native) return native(value);
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ch = value[i];
    if (c === 0) out += "\uFFFD";
    else if ((c >= 1 && c <= 31) || c === 127) out += `\\${c.toString(16)} `;
    else if (i === 0 && c >= 48 && c <= 57) out += `\\${c.toString(16)} `;
    else if (i === 1 && c >= 48 && c <= 57 && value[0] === "-") out += `\\${c.toString(16)} `;
    else if (i === 0 && ch === "-" && value.length === 1) out += "\\-";
    else if (c >= 128 || ch === "-" || ch === "_" || /[0-9A-Za-z]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

/** A CSS string literal of `value` (double quotes). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`;

/** Counts of a value over elements (ids, tags, attribute values), built in one pass. */
function tally(elements: ArrayLike<WElement>, key: (el: WElement) => string | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < elements.length; i++) {
    const k = key(elements[i]);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Makes the short selectors of one read of a page. */
export class SelectorMaker {
  private readonly doc: WDocument;
  private readonly ids: Map<string, number>;
  private readonly tags: Map<string, number>;
  private readonly stamps: Map<string, number>;
  private readonly attrCounts = new Map<string, Map<string, number>>();
  private nextStamp: number;

  constructor(doc: WDocument) {
    this.doc = doc;
    const all = doc.querySelectorAll("*");
    this.ids = tally(doc.querySelectorAll("[id]"), (el) => el.getAttribute("id"));
    this.tags = tally(all, (el) => el.tagName.toLowerCase());
    this.stamps = tally(doc.querySelectorAll(`[${STAMP_ATTR}]`), (el) => el.getAttribute(STAMP_ATTR));
    let max = 0;
    for (const v of this.stamps.keys()) if (/^\d+$/.test(v)) max = Math.max(max, Number(v));
    this.nextStamp = max + 1;
  }

  /** The element's short unique selector, stamping it when it has none; `byClass` tries `tag.class` too (for regions). */
  of(el: WElement, byClass = false): string {
    const stamp = el.getAttribute(STAMP_ATTR);
    if (stamp !== null && this.stamps.get(stamp) === 1 && !/[\n\r\f]/.test(stamp))
      return `[${STAMP_ATTR}=${quoted(stamp)}]`;
    const id = el.getAttribute("id");
    if (id && this.ids.get(id) === 1) {
      const sel = `#${cssEscape(id)}`;
      if (sel.length <= MAX_SELECTOR_CHARS) return sel;
    }
    const tag = el.tagName.toLowerCase();
    for (const attr of NAMING_ATTRS) {
      const value = el.getAttribute(attr);
      if (!value || /[\n\r\f]/.test(value)) continue;
      const sel = `${tag}[${attr}=${quoted(value)}]`;
      if (sel.length <= MAX_SELECTOR_CHARS && this.countOf(tag, attr, value) === 1) return sel;
    }
    if (this.tags.get(tag) === 1 && tag !== "html") return tag;
    if (byClass) {
      const sel = this.classSelector(el, tag);
      if (sel) return sel;
    }
    return this.stamp(el);
  }

  /** `tag.class` for the first class that makes it unique and short. */
  private classSelector(el: WElement, tag: string): string | null {
    for (const cls of (el.getAttribute("class") ?? "").split(/\s+/)) {
      if (!cls) continue;
      const sel = `${tag}.${cssEscape(cls)}`;
      if (sel.length <= MAX_SELECTOR_CHARS && this.doc.querySelectorAll(sel).length === 1) return sel;
    }
    return null;
  }

  /** How many elements of `tag` carry `attr` = `value` (counted once per tag and attribute). */
  private countOf(tag: string, attr: string, value: string): number {
    const key = `${tag}[${attr}]`;
    let counts = this.attrCounts.get(key);
    if (!counts) {
      counts = tally(this.doc.querySelectorAll(key), (el) => el.getAttribute(attr));
      this.attrCounts.set(key, counts);
    }
    return counts.get(value) ?? 0;
  }

  /** Stamps the element with the next free number. */
  private stamp(el: WElement): string {
    let n = this.nextStamp++;
    while (this.stamps.has(String(n))) n = this.nextStamp++;
    el.setAttribute(STAMP_ATTR, String(n));
    this.stamps.set(String(n), 1);
    return `[${STAMP_ATTR}="${n}"]`;
  }
}
