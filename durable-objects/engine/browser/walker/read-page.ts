/**
 * get_tab_content's reading of a rendered page, run inside the page: the requested part, else
 * the main region (less the chrome inside it: share bars, related links) followed by an outline of
 * the rest, else (no clear main region) the `<main>`
 * landmark or the whole body, as Markdown with short selectors on what the agent can act on.
 */
import type { WDocument, WElement } from "./dom";
import { foldedParts, mainRegion, measure } from "./main-region";
import { MarkdownWriter } from "./markdown";
import { outline } from "./outline";
import { SelectorMaker } from "./selectors";

/** What a read returns. */
export interface PageReading {
  url: string;
  title: string;
  /** The selector of the part read: the one requested, the main region's, `main` or `body`. */
  used_selector: string;
  /** The part's Markdown. */
  content: string;
  /** The outline of the page outside the main region; "" when the part read is the whole page or was requested. */
  outline: string;
  error?: "no_match" | "bad_selector";
}

/** Reads the page, or the part matching `requested`. */
export function readPage(doc: WDocument, url: string, requested: string | null): PageReading {
  const base = { url, title: doc.title, outline: "" };
  const body = doc.body ?? doc.documentElement;
  if (requested) {
    let root: WElement | null;
    try {
      root = doc.querySelector(requested);
    } catch {
      return { ...base, used_selector: requested, content: "", error: "bad_selector" };
    }
    if (!root) return { ...base, used_selector: requested, content: "", error: "no_match" };
    return {
      ...base,
      used_selector: requested,
      content: new MarkdownWriter(new SelectorMaker(doc), url).write(root),
    };
  }
  const selectors = new SelectorMaker(doc);
  const m = measure(body);
  const region = mainRegion(body, m);
  if (!region) {
    const main = doc.querySelector("main");
    const root = main ?? body;
    return {
      ...base,
      used_selector: main ? "main" : "body",
      content: new MarkdownWriter(selectors, url).write(root),
    };
  }
  const folded = foldedParts(region, m);
  return {
    ...base,
    used_selector: selectors.of(region, true),
    content: new MarkdownWriter(selectors, url, new Set(folded)).write(region),
    outline: outline(body, region, m, selectors, folded),
  };
}
