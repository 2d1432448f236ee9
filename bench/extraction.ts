/**
 * Extraction bench: our main-content extractor against Readability.js (both on linkedom),
 * side by side inside workerd, on two sets read from ../shared/data beside the repo (never copied in):
 * - the article-extraction set: word 4-shingle precision/recall (per-page averaged) and F1;
 * - the WCXB development split (7 page types): the benchmark's word-level F1, mean over pages,
 *   printed per type beside rs-trafilatura's published figures, plus a held-out part (ids ≡ 0 mod 5)
 *   that no rule was tuned on.
 * Prints median / p95 time per page of each extractor. Run: `node bench/extraction.ts`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { aggregate, type BenchPage, loadPages, scorePage } from "./article-set.ts";
import { loadWcxb, markdownAsText, RS_TRAFILATURA, scoreWords, WCXB_TYPES } from "./wcxb-score.ts";

const WCXB_DIR = process.env.WCXB_DATA ?? join(import.meta.dirname, "../../shared/data/wcxb-dev");
/** Each article page is extracted this many times per extractor; the mean is its time. */
const REPEAT = Number(process.env.EXTRACTION_REPEAT ?? "5");
/** WCXB pages are many and large: one timed run each. */
const WCXB_REPEAT = Number(process.env.WCXB_REPEAT ?? "1");
/** `readability` runs on our patched libraries, `readability-stock` on the published ones (see extraction-worker.ts). */
const EXTRACTORS = ["ours", "readability", "readability-stock"] as const;
type Which = (typeof EXTRACTORS)[number];

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

/** Runs both extractors on every page (alternating which goes first) and collects text and time. */
async function runAll(worker: Worker, pages: { url: string; bytes: Uint8Array }[], repeat: number) {
  const out = Object.fromEntries(EXTRACTORS.map((e) => [e, [] as { text: string; ms: number }[]])) as Record<
    Which,
    { text: string; ms: number }[]
  >;
  for (const [i, page] of pages.entries()) {
    const order = i % 2 === 0 ? EXTRACTORS : [...EXTRACTORS].reverse();
    for (const which of order) {
      const q = new URLSearchParams({ which, url: page.url, repeat: String(repeat) });
      const res = await worker.fetch(`http://bench/?${q}`, { method: "POST", body: page.bytes });
      if (!res.ok) throw new Error(`${which} on ${page.url}: ${res.status} ${await res.text()}`);
      const got = (await res.json()) as { text: string; ms: number; error?: string };
      // An extractor that throws on a page scores 0 there (empty text); the bench goes on.
      if (got.error) console.log(`${which} threw on ${page.url}: ${got.error}`);
      out[which].push(got);
    }
  }
  return out;
}

function printArticles(pages: BenchPage[], runs: Awaited<ReturnType<typeof runAll>>): void {
  console.log(`article extraction, ${pages.length} pages, inside workerd, mean of ${REPEAT} runs per page`);
  console.log(`${"extractor".padEnd(19)}precision  recall  F1      median ms  p95 ms`);
  for (const which of EXTRACTORS) {
    const scores = runs[which].map((r, i) => scorePage(pages[i].truth, r.text));
    const { precision, recall, f1 } = aggregate(scores);
    const row = [precision, recall, f1].map((v) => v.toFixed(3).padEnd(8)).join("");
    const t = runs[which].map((r) => r.ms);
    console.log(
      `${which.padEnd(19)}${row}${percentile(t, 0.5).toFixed(2).padEnd(11)}${percentile(t, 0.95).toFixed(2)}`,
    );
  }
}

function printWcxb(pages: ReturnType<typeof loadWcxb>, runs: Awaited<ReturnType<typeof runAll>>): void {
  const f1 = Object.fromEntries(
    EXTRACTORS.map((e) => [e, runs[e].map((r, i) => scoreWords(pages[i].truth, markdownAsText(r.text)).f1)]),
  ) as Record<Which, number[]>;
  console.log(
    `\nWCXB development split, ${pages.length} pages, word-level F1 (mean over pages), inside workerd`,
  );
  console.log("page type      pages  ours    (held-out)  readability  rs-trafilatura (published)");
  for (const type of [...WCXB_TYPES, "overall"]) {
    const idx = pages.flatMap((p, i) => (type === "overall" || p.type === type ? [i] : []));
    const held = idx.filter((i) => Number(pages[i].id) % 5 === 0);
    const cells = [
      mean(idx.map((i) => f1.ours[i]))
        .toFixed(3)
        .padEnd(8),
      `(${mean(held.map((i) => f1.ours[i])).toFixed(3)})`.padEnd(12),
      mean(idx.map((i) => f1.readability[i]))
        .toFixed(3)
        .padEnd(13),
      RS_TRAFILATURA[type].toFixed(3),
    ];
    console.log(`${type.padEnd(15)}${String(idx.length).padEnd(7)}${cells.join("")}`);
  }
  // WCXB_OUT=file keeps each page's scores and our text, to look at failures without re-running.
  if (process.env.WCXB_OUT) {
    const rows = pages.map((p, i) => ({
      id: p.id,
      type: p.type,
      ours: f1.ours[i],
      readability: f1.readability[i],
      text: runs.ours[i].text,
    }));
    writeFileSync(process.env.WCXB_OUT, JSON.stringify(rows));
  }
  for (const which of EXTRACTORS) {
    const t = runs[which].map((r) => r.ms);
    console.log(
      `${which.padEnd(18)} median ${percentile(t, 0.5).toFixed(2)} ms, p95 ${percentile(t, 0.95).toFixed(2)} ms per page`,
    );
  }
}

async function main(): Promise<void> {
  const worker = await unstable_startWorker({
    config: join(import.meta.dirname, "extraction.toml"),
    dev: { server: { port: 0 }, inspector: false, logLevel: "error" },
  });
  try {
    await worker.ready;
    const pages = loadPages();
    printArticles(pages, await runAll(worker, pages, REPEAT));
    const wcxb = loadWcxb(WCXB_DIR);
    printWcxb(wcxb, await runAll(worker, wcxb, WCXB_REPEAT));
  } finally {
    await worker.dispose();
  }
}

await main();
