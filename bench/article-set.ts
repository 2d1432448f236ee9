/**
 * The article-extraction set (../shared/data/article-extraction, read in place, never copied in):
 * its pages with their true article bodies, and the benchmark's word 4-shingle score.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";

/** The data set `name` in `shared/data/` beside the repo (the nearest one up from `from`; a worktree sits deeper). */
export function dataDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "shared", "data", name);
    if (existsSync(candidate) || dirname(dir) === dir) return candidate;
  }
}

/** Where the set lives (EXTRACTION_DATA overrides). */
export const DATA_DIR = process.env.EXTRACTION_DATA ?? dataDir("article-extraction", import.meta.dirname);

/** One page of the article set: its raw bytes (decoded inside the Worker) and the true article body. */
export interface BenchPage {
  key: string;
  url: string;
  bytes: Uint8Array;
  truth: string;
}

/** Per-page precision and recall of one extraction. */
export interface PageScore {
  precision: number;
  recall: number;
}

/** Every page of the article set, sorted by key. */
export function loadPages(dir = DATA_DIR): BenchPage[] {
  const truth = JSON.parse(readFileSync(join(dir, "ground-truth.json"), "utf8")) as Record<
    string,
    { articleBody: string; url: string }
  >;
  return readdirSync(join(dir, "html"))
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .map((f) => {
      const key = f.replace(/\.html\.gz$/, "");
      const bytes = new Uint8Array(gunzipSync(readFileSync(join(dir, "html", f))));
      return { key, url: truth[key]?.url ?? "", bytes, truth: truth[key]?.articleBody ?? "" };
    });
}

const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;
const LINK_TARGET = /\]\([^)]*\)/g;

function shingles(text: string): Map<string, number> {
  const tokens = text.replace(LINK_TARGET, "]").match(TOKEN) ?? [];
  const out = new Map<string, number>();
  const add = (s: string) => out.set(s, (out.get(s) ?? 0) + 1);
  if (tokens.length > 0 && tokens.length < 4) add(tokens.join(" "));
  for (let i = 0; i + 4 <= tokens.length; i++) add(tokens.slice(i, i + 4).join(" "));
  return out;
}

/** Scores one extraction against the true body (the article benchmark's metric). */
export function scorePage(truth: string, predicted: string): PageScore {
  const t = shingles(truth);
  const p = shingles(predicted);
  let [tp, fp, fn] = [0, 0, 0];
  for (const [s, n] of p) {
    const m = t.get(s) ?? 0;
    tp += Math.min(n, m);
    fp += Math.max(0, n - m);
  }
  for (const [s, n] of t) fn += Math.max(0, n - (p.get(s) ?? 0));
  if (fp === 0 && fn === 0) return { precision: 1, recall: 1 };
  return { precision: tp + fp === 0 ? 0 : tp / (tp + fp), recall: tp + fn === 0 ? 0 : tp / (tp + fn) };
}

/** Mean precision and recall over pages, and the F1 of those means. */
export function aggregate(scores: PageScore[]): { precision: number; recall: number; f1: number } {
  const precision = scores.reduce((a, s) => a + s.precision, 0) / scores.length;
  const recall = scores.reduce((a, s) => a + s.recall, 0) / scores.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}
