/**
 * Extraction bench: our main-content extractor against Readability.js (both on linkedom),
 * side by side inside workerd, on two sets read from ../shared/data beside the repo (never copied in):
 * - the article-extraction set: word 4-shingle precision/recall (per-page averaged) and F1;
 * - the WCXB development split (7 page types): the benchmark's word-level F1, mean over pages,
 *   printed per type beside rs-trafilatura's published figures.
 * Both sets are split by site (site-split.ts): the held-out part is reported in aggregate only.
 * Prints median / p95 time per page of each extractor. Run: `node bench/extraction.ts`.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { aggregate, type BenchPage, dataDir, loadPages, scorePage } from "./article-set.ts";
import { isHeldOut } from "./site-split.ts";
import { loadWcxb, markdownAsText, RS_TRAFILATURA, scoreWords, WCXB_TYPES } from "./wcxb-score.ts";

const WCXB_DIR = process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname);
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
async function runAll(
  worker: Worker,
  pages: { url: string; id: string; bytes: Uint8Array }[],
  repeat: number,
) {
  const out = Object.fromEntries(EXTRACTORS.map((e) => [e, [] as { text: string; ms: number }[]])) as Record<
    Which,
    { text: string; ms: number }[]
  >;
  for (const [i, page] of pages.entries()) {
    const order = i % 2 === 0 ? EXTRACTORS : [...EXTRACTORS].reverse();
    for (const which of order) {
      const q = new URLSearchParams({ which, url: page.url, repeat: String(repeat) });
      // A Worker that dies on a page (out of memory) says which extractor and page (a held-out page by its index only).
      const where = () =>
        `${which} on page ${i}${isHeldOut(page.url, page.id) ? " (held out)" : ` (${page.url})`}`;
      const res = await worker
        .fetch(`http://bench/?${q}`, { method: "POST", body: page.bytes })
        .catch((err: unknown) => {
          throw new Error(`the Worker failed: ${where()}: ${String(err)}`);
        });
      if (!res.ok) throw new Error(`${where()}: ${res.status} ${await res.text()}`);
      const got = (await res.json()) as { text: string; ms: number; error?: string };
      // An extractor that throws on a page scores 0 there (empty text); the bench goes on.
      if (got.error) console.log(`${which} threw on ${page.url}: ${got.error}`);
      out[which].push(got);
    }
  }
  return out;
}

function printArticles(pages: BenchPage[], runs: Awaited<ReturnType<typeof runAll>>): void {
  const held = pages.map((p) => isHeldOut(p.url, p.key));
  console.log(
    `article extraction, ${pages.length} pages (${held.filter(Boolean).length} held out by site), inside workerd, mean of ${REPEAT} runs per page`,
  );
  console.log(`${"extractor".padEnd(19)}precision  recall  F1      train   held-out  median ms  p95 ms`);
  for (const which of EXTRACTORS) {
    const scores = runs[which].map((r, i) => scorePage(pages[i].truth, r.text));
    const { precision, recall, f1 } = aggregate(scores);
    const part = (h: boolean) =>
      aggregate(scores.filter((_, i) => held[i] === h))
        .f1.toFixed(3)
        .padEnd(8);
    const row = [precision, recall, f1].map((v) => v.toFixed(3).padEnd(8)).join("");
    const t = runs[which].map((r) => r.ms);
    console.log(
      `${which.padEnd(19)}${row}${part(false)}${part(true)}  ${percentile(t, 0.5).toFixed(2).padEnd(11)}${percentile(t, 0.95).toFixed(2)}`,
    );
  }
}

function printWcxb(pages: ReturnType<typeof loadWcxb>, runs: Awaited<ReturnType<typeof runAll>>): void {
  const f1 = Object.fromEntries(
    EXTRACTORS.map((e) => [e, runs[e].map((r, i) => scoreWords(pages[i].truth, markdownAsText(r.text)).f1)]),
  ) as Record<Which, number[]>;
  const held = pages.map((p) => isHeldOut(p.url, p.id));
  console.log(
    `\nWCXB development split, ${pages.length} pages, word-level F1 (mean over pages), inside workerd; train | held-out (by site)`,
  );
  console.log(
    "page type      train held  ours: all  train  held   readability: train  held   rs-trafilatura",
  );
  for (const type of [...WCXB_TYPES, "overall"]) {
    const idx = pages.flatMap((p, i) => (type === "overall" || p.type === type ? [i] : []));
    const part = (h: boolean) => idx.filter((i) => held[i] === h);
    const of = (which: Which, at: number[]) => mean(at.map((i) => f1[which][i])).toFixed(3);
    const cells = [
      String(part(false).length).padEnd(6),
      String(part(true).length).padEnd(6),
      of("ours", idx).padEnd(7),
      of("ours", part(false)).padEnd(7),
      of("ours", part(true)).padEnd(20),
      of("readability", part(false)).padEnd(7),
      of("readability", part(true)).padEnd(7),
      RS_TRAFILATURA[type].toFixed(3),
    ];
    console.log(`${type.padEnd(15)}${cells.join("")}`);
  }
  // WCXB_OUT=file keeps each training page's scores and our text, to look at failures without
  // re-running (held-out pages are never written one by one).
  if (process.env.WCXB_OUT) {
    const rows = pages.flatMap((p, i) =>
      held[i]
        ? []
        : [
            {
              id: p.id,
              type: p.type,
              ours: f1.ours[i],
              readability: f1.readability[i],
              text: runs.ours[i].text,
            },
          ],
    );
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
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  console.log(`load average at start: ${load()} (1, 5, 15 min)`);
  try {
    await worker.ready;
    const pages = loadPages();
    if (process.env.EXTRACTION_SETS !== "wcxb")
      printArticles(
        pages,
        await runAll(
          worker,
          pages.map((p) => ({ ...p, id: p.key })),
          REPEAT,
        ),
      );
    const wcxb = loadWcxb(WCXB_DIR);
    printWcxb(wcxb, await runAll(worker, wcxb, WCXB_REPEAT));
  } finally {
    console.log(`load average at end: ${load()}`);
    await worker.dispose();
  }
}

await main();
