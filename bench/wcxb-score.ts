/**
 * The WCXB benchmark's scoring (its evaluate.py): bag-of-words F1 per page over `\w+` tokens of
 * the lower-cased text, mean over pages; Markdown is scored as text (link targets and the leading
 * `# title` line dropped).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/** One WCXB page: raw bytes and its reviewed main content. */
export interface WcxbPage {
  id: string;
  url: string;
  type: string;
  bytes: Uint8Array;
  truth: string;
  /** Snippets a correct extraction contains (`with`), and boilerplate snippets it must not (`without`). */
  snippets: { with: string[]; without: string[] };
}

/** Page types in the order the benchmark's table prints them. */
export const WCXB_TYPES = [
  "article",
  "documentation",
  "service",
  "forum",
  "collection",
  "listing",
  "product",
] as const;

/** rs-trafilatura's published F1 on the development split, per type and overall. */
export const RS_TRAFILATURA: Record<string, number> = {
  overall: 0.859,
  article: 0.932,
  documentation: 0.932,
  service: 0.844,
  forum: 0.808,
  collection: 0.716,
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: a published score, not √½.
  listing: 0.707,
  product: 0.641,
};

/** Every page of a WCXB split directory, sorted by id. */
export function loadWcxb(dir: string): WcxbPage[] {
  const truth = JSON.parse(readFileSync(join(dir, "ground-truth.json"), "utf8")) as Record<
    string,
    { url: string; page_type: string; main_content: string; with?: string[]; without?: string[] }
  >;
  return readdirSync(join(dir, "html"))
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .map((f) => {
      const id = f.replace(/\.html\.gz$/, "");
      const t = truth[id];
      const bytes = new Uint8Array(gunzipSync(readFileSync(join(dir, "html", f))));
      const snippets = { with: t?.with ?? [], without: t?.without ?? [] };
      return {
        id,
        url: t?.url ?? "",
        type: t?.page_type ?? "unknown",
        bytes,
        truth: t?.main_content ?? "",
        snippets,
      };
    });
}

// Python's `\w` with Unicode: letters, digits (all Nd/Nl/No), marks that join them, underscore.
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

/** Markdown as the benchmark scores it: link/image targets and the leading `# title` line dropped. */
export function markdownAsText(markdown: string): string {
  return markdown.replace(/\]\([^)]*\)/g, "]").replace(/^\s*# [^\n]*\n?/, "");
}

function bag(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? []) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/**
 * Precision, recall and F1 of one page, as evaluate.py computes them: an empty prediction scores 0,
 * except on a page whose reference is empty too, which scores 1 (nothing to find, nothing shown).
 */
export function scoreWords(truth: string, predicted: string): { p: number; r: number; f1: number } {
  const t = bag(truth);
  const p = bag(predicted);
  let overlap = 0;
  let np = 0;
  let nt = 0;
  for (const [w, n] of p) {
    np += n;
    overlap += Math.min(n, t.get(w) ?? 0);
  }
  for (const n of t.values()) nt += n;
  if (nt === 0 && np === 0) return { p: 1, r: 1, f1: 1 };
  if (np === 0 || nt === 0 || overlap === 0) return { p: 0, r: 0, f1: 0 };
  const precision = overlap / np;
  const recall = overlap / nt;
  return { p: precision, r: recall, f1: (2 * precision * recall) / (precision + recall) };
}

/** Text as snippets are compared: lower-cased, Markdown's marks out, runs of white space one space. */
const snippetForm = (text: string) =>
  text
    .toLowerCase()
    .replace(/[*_`#>|[\]\\]/g, "")
    .replace(/\s+/g, " ");

/**
 * The shares of a page's snippets found in `text` (1 where it lists none), as evaluate.py's
 * snippet_check reads them, on both sides' text without Markdown's marks or line breaks
 * (evaluate.py is given plain text): `kept` of its `with` snippets, `junk` of its `without` ones.
 * Reported beside F1, never part of it.
 */
export function snippetRates(text: string, snippets: WcxbPage["snippets"]): { kept: number; junk: number } {
  const form = snippetForm(text);
  const rate = (of: string[]) =>
    of.length ? of.filter((s) => form.includes(snippetForm(s).trim())).length / of.length : 1;
  return { kept: rate(snippets.with), junk: rate(snippets.without) };
}
