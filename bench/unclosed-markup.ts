/**
 * Pages that never close their tags: a short story followed by N openers that never end (`<script>`,
 * `<!-- `, `<nav>`, a tag never closed by `>`, …). Each shape is cut out of the HTML text before
 * parsing (durable-objects/extractor/raw-blocks.ts); a scan per opener to the end of the page made
 * the cost grow with N², so a hostile page could stall the conversation. Prints the time of
 * `extractMainContent` per shape at N = 5,000 and 20,000 and their ratio (4 when the cost is linear,
 * 16 when quadratic). Run: `node bench/unclosed-markup.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const ROOT = join(fileURLToPath(import.meta.url), "../..");
/** Repetitions of each opener. */
const SIZES = [5_000, 20_000];
/** Runs per page; the best is reported (the machine's noise only adds time). */
const RUNS = 3;

const SHAPES: Record<string, string> = {
  "<script>": "<script>",
  "<!-- ": "<!-- ",
  "<nav>x ": "<nav>x ",
  "<button>x ": "<button>x ",
  "<template>": "<template>",
  "<noscript>x ": "<noscript>x ",
  "<base  (no >)": "<base ",
  "<input  (no >)": "<input ",
  '<img data-a="1"  (no >)': '<img data-a="1" ',
  '<script type="application/ld+json">': '<script type="application/ld+json">',
};

const STORY = [1, 2, 3]
  .map(
    (n) =>
      `<p>Paragraph ${n}: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.</p>`,
  )
  .join("");

const page = (opener: string, n: number) =>
  `<!doctype html><html><head><title>Night buses</title></head><body><article>${STORY}</article>${opener.repeat(n)}`;

const dir = mkdtempSync(join(tmpdir(), "unclosed-bench-"));
const outfile = join(dir, "extract.mjs");
buildSync({
  entryPoints: [join(ROOT, "durable-objects/extractor/extract.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile,
  logLevel: "warning",
});
const { extractMainContent } = (await import(
  pathToFileURL(outfile).href
)) as typeof import("../durable-objects/extractor/extract");
rmSync(dir, { recursive: true });

/** The best time of a page's runs, and whether its Markdown still holds the story. */
function best(html: string): { ms: number; story: boolean } {
  let ms = Number.POSITIVE_INFINITY;
  let markdown = "";
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    markdown = extractMainContent(html, "https://news.example/buses").markdown;
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, story: markdown.includes("Paragraph 3: the harbour board") };
}

best(page("<p>x ", 100)); // warm-up
console.log(`pages that never close their tags: best of ${RUNS} runs, ms per page`);
console.log(
  `${"opener repeated N times".padEnd(40)}${SIZES.map((n) => `N=${n}`.padStart(10)).join("")}  ratio  story kept`,
);
for (const [name, opener] of Object.entries(SHAPES)) {
  const runs = SIZES.map((n) => best(page(opener, n)));
  const ratio = (runs[runs.length - 1].ms / runs[0].ms).toFixed(1).padStart(5);
  const times = runs.map((r) => r.ms.toFixed(0).padStart(10)).join("");
  console.log(`${name.padEnd(40)}${times}  ${ratio}  ${runs.every((r) => r.story) ? "yes" : "no"}`);
}
