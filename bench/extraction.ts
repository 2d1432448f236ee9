/**
 * Extraction bench: our main-content extractor against Readability.js (both on linkedom),
 * side by side inside workerd, on the article-extraction set read from /work/shared/data.
 * Prints precision, recall, F1 (word 4-shingles, per-page averaged) and median / p95 time.
 * Run: `node bench/extraction.ts` (Node 22 from node_modules/.bin).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { unstable_startWorker } from "wrangler";

const DATA_DIR = process.env.EXTRACTION_DATA ?? "/work/shared/data/article-extraction";
/** Each page is extracted this many times per extractor; the mean is its time. */
const REPEAT = Number(process.env.EXTRACTION_REPEAT ?? "5");
const EXTRACTORS = ["ours", "readability"] as const;

/** One page of the set: its raw bytes (decoded inside the Worker) and the true article body. */
interface BenchPage {
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

/** Every page of the set, sorted by key. */
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

/** Scores one extraction against the true body (the benchmark's metric). */
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

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const pages = loadPages();
  const worker = await unstable_startWorker({
    config: join(import.meta.dirname, "extraction.toml"),
    dev: { server: { port: 0 }, inspector: false, logLevel: "error" },
  });
  const results = Object.fromEntries(
    EXTRACTORS.map((e) => [e, { scores: [] as PageScore[], ms: [] as number[] }]),
  );
  try {
    await worker.ready;
    for (const [i, page] of pages.entries()) {
      // Alternate the order per page so neither extractor always runs on a warmer isolate.
      const order = i % 2 === 0 ? EXTRACTORS : [...EXTRACTORS].reverse();
      for (const which of order) {
        const q = new URLSearchParams({ which, url: page.url, repeat: String(REPEAT) });
        const res = await worker.fetch(`http://bench/?${q}`, { method: "POST", body: page.bytes });
        if (!res.ok) throw new Error(`${which} on ${page.key}: ${res.status} ${await res.text()}`);
        const { text, ms } = (await res.json()) as { text: string; ms: number };
        results[which].scores.push(scorePage(page.truth, text));
        results[which].ms.push(ms);
      }
    }
  } finally {
    await worker.dispose();
  }
  console.log(`article extraction, ${pages.length} pages, inside workerd, mean of ${REPEAT} runs per page`);
  console.log("extractor     precision  recall  F1      median ms  p95 ms");
  for (const which of EXTRACTORS) {
    const { precision, recall, f1 } = aggregate(results[which].scores);
    const row = [precision, recall, f1].map((v) => v.toFixed(3).padEnd(8)).join("");
    const t = results[which].ms;
    console.log(
      `${which.padEnd(14)}${row}${percentile(t, 0.5).toFixed(2).padEnd(11)}${percentile(t, 0.95).toFixed(2)}`,
    );
  }
}

await main();
