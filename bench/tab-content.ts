/**
 * get_tab_content bench, inside workerd (wrangler's local runtime) with the local Chromium: the
 * pages of the article-extraction set served locally (their own scripts and remote resources
 * blocked by a CSP, so the run is offline and repeatable), each read with the tool's defaults and
 * with the walker it replaced (bench/legacy-tab-walker.ts, through execute_script), side by side;
 * `script` is the new walker through execute_script too (its main part only, no outline), so the
 * two walkers' times compare on the same path.
 * Per walker: recall and precision of the true article body (word 4-shingles), the share of the
 * content that is selector annotations, characters and tokens (o200k_base) per page, time per call, how often the whole
 * body was read, and whether every annotation on a sample of pages matches exactly one element.
 * Time: each page is read TAB_BENCH_REPEATS times (default 3) by every walker, the order turning
 * each round, so the walkers share the machine's load; a page's time is its median, and the old
 * and new walkers are compared on the same path (execute_script) page by page, besides the
 * time spent in the page itself.
 * Pages split by site (site-split.ts): a tuning part and a held-out part, reported apart and the
 * held-out part in aggregate only. Run: `node bench/tab-content.ts` (TAB_BENCH_SPLIT=tune|held,
 * TAB_BENCH_EVERY=n reads every n-th page only, TAB_BENCH_OUT=file writes the tuning part's
 * per-page figures).
 */

import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { readPageScript } from "../durable-objects/engine/browser/page-content.ts";
import { decodeBody } from "../durable-objects/engine/net/charset.ts";
import { buildWeb } from "../scripts/build-web.ts";
import { aggregate, type BenchPage, loadPages, scorePage } from "./article-set.ts";
import { legacyExtractionScript } from "./legacy-tab-walker.ts";
import { isHeldOut as heldOutSite } from "./site-split.ts";
import { type BenchCall, benchCaller, startToolWorker } from "./start-worker.ts";

const TOKEN = "bench-admin-token";
/** get_tab_content's default cap, which the old walker's content is cut to as well. */
const DEFAULT_CHARS = 20_000;
/** Every this-many-th page has each of its annotations checked against the DOM. */
const SAMPLE_EVERY = 4;
/** Reads per walker and page, for the time per call. */
const REPEATS = Number(process.env.TAB_BENCH_REPEATS ?? 3);
/** Scripts and remote resources are blocked: the page is what the crawler saved. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'";
/** A selector annotation: ` {selector}` after a heading, link, button or field. */
const ANNOTATION = / \{([^{}\n]+)\}/g;

type Walker = "new" | "old" | "script";
interface Read {
  content: string;
  used: string;
  /** Median time per call, and in the page (null where the tool does not say). */
  ms: number;
  inPageMs: number | null;
  annotated: number;
  unique: number | null;
  checked: number;
}

/** Whether a page's site is held out from tuning. */
const isHeldOut = (page: BenchPage) => heldOutSite(page.url, page.key);
/** Wraps a reading script so it says how long it ran in the page. */
const timedInPage = (code: string) =>
  `(() => { const t0 = performance.now(); const r = ${code}; return { ...r, inPageMs: performance.now() - t0 }; })()`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** The article pages to read: those with a URL, of TAB_BENCH_SPLIT's part, every TAB_BENCH_EVERY-th. */
function selectPages(): BenchPage[] {
  const split = process.env.TAB_BENCH_SPLIT;
  const every = Number(process.env.TAB_BENCH_EVERY ?? 1);
  return loadPages()
    .filter((p) => p.url && (!split || (split === "held") === isHeldOut(p)))
    .filter((_, i) => i % every === 0);
}

/** Serves each page at /p/<key>, under the CSP. */
function servePages(pages: BenchPage[]): Server {
  const byKey = new Map(pages.map((p) => [p.key, p]));
  return createServer((req, res) => {
    const page = byKey.get((req.url ?? "").replace(/^\/p\//, ""));
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    // Decoded by its own charset here (as the extraction bench does), served as UTF-8.
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP });
    res.end(decodeBody(page.bytes, null, true));
  });
}

/** Tool calls in one conversation: any tool, and execute_script in a tab's page. */
function toolsOf(call: BenchCall, conv: string) {
  // biome-ignore lint/suspicious/noExplicitAny: tool results are read loosely
  const tool = async (name: string, args: Record<string, unknown>): Promise<any> =>
    ((await call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args })) as { result: unknown })
      .result;
  const script = (tabId: number, code: string) =>
    tool("execute_script", { target: "page", tab_id: tabId, code });
  return { tool, script };
}
type Tools = ReturnType<typeof toolsOf>;

interface WalkerCall {
  content: string;
  used: string;
  ms: number;
  inPageMs: number | null;
}

/** One call of a walker: its content and used selector, the call's time and the time in the page. */
async function callOnce({ tool, script }: Tools, walker: Walker, tabId: number): Promise<WalkerCall> {
  const start = performance.now();
  let r: { content: string; used_selector: string; inPageMs?: number };
  if (walker === "new") r = await tool("get_tab_content", { tab_id: tabId });
  else {
    const code = walker === "script" ? readPageScript(undefined) : legacyExtractionScript(undefined);
    r = (await script(tabId, timedInPage(code))).result;
  }
  const content = walker === "old" ? String(r.content).slice(0, DEFAULT_CHARS) : r.content;
  return { content, used: r.used_selector, ms: performance.now() - start, inPageMs: r.inPageMs ?? null };
}

/** The share of annotations and, on sampled pages, how many match exactly one element. */
async function checkAnnotations({ script }: Tools, content: string, tabId: number, check: boolean) {
  const selectors = [...content.matchAll(ANNOTATION)].map((m) => m[1]);
  const annotated = selectors.reduce((n, s) => n + s.length + 3, 0);
  if (!check || !selectors.length) return { annotated, unique: null, checked: 0 };
  const counts = (
    await script(
      tabId,
      `${JSON.stringify(selectors)}.map((s) => { try { return document.querySelectorAll(s).length; } catch { return -1; } })`,
    )
  ).result as number[];
  return { annotated, unique: counts.filter((n) => n === 1).length, checked: selectors.length };
}

const WALKERS: Walker[] = ["new", "old", "script"];

/** Page `i` read REPEATS times by every walker in a turning order, in one tab; its Read per walker. */
async function readPage(tools: Tools, i: number, url: string, reads: Record<Walker, Read[]>): Promise<void> {
  const tab = await tools.tool("open_tab", { url });
  const calls: Record<Walker, WalkerCall[]> = { new: [], old: [], script: [] };
  // The order turns each round (the first read of a page pays its style and layout).
  for (let round = 0; round < REPEATS; round++) {
    const k = (i + round) % WALKERS.length;
    for (const w of [...WALKERS.slice(k), ...WALKERS.slice(0, k)])
      calls[w].push(await callOnce(tools, w, tab.id));
  }
  for (const w of WALKERS) {
    const [first] = calls[w];
    const inPage = calls[w].flatMap((c) => (c.inPageMs === null ? [] : [c.inPageMs]));
    reads[w].push({
      content: first.content,
      used: first.used,
      ms: median(calls[w].map((c) => c.ms)),
      inPageMs: inPage.length ? median(inPage) : null,
      ...(await checkAnnotations(tools, first.content, tab.id, i % SAMPLE_EVERY === 0)),
    });
  }
  await tools.tool("close_tab", { tab_id: tab.id });
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  buildWeb();
  const pages = selectPages();
  const server = servePages(pages);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = await startToolWorker(TOKEN);
  try {
    await worker.ready;
    const call = benchCaller(worker, TOKEN);
    const conv = (await call("/v1/conversations", {})).id as string;
    const tools = toolsOf(call, conv);
    const reads: Record<Walker, Read[]> = { new: [], old: [], script: [] };
    for (const [i, page] of pages.entries()) await readPage(tools, i, `${origin}/p/${page.key}`, reads);
    report(pages, reads);
    await call(`/v1/conversations/${conv}`, {}, "DELETE");
  } finally {
    await worker.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function report(pages: BenchPage[], reads: Record<Walker, Read[]>): void {
  console.log(
    `get_tab_content bench: ${pages.length} article pages served locally, local Chromium, defaults (max_length ${DEFAULT_CHARS})`,
  );
  console.log(
    `split      walker  recall  precision  annotations  chars/page  tokens/page  ms/call  in page  body  unique   (ms: median over pages of each page's median of ${REPEATS})`,
  );
  const parts: [string, (p: BenchPage) => boolean][] = [
    ["tuning", (p) => !isHeldOut(p)],
    ["held-out", isHeldOut],
    ["all", () => true],
  ];
  for (const [name, inPart] of parts) {
    const idx = pages.flatMap((p, i) => (inPart(p) ? [i] : []));
    if (idx.length) reportPart(name, idx, pages, reads);
  }
  if (process.env.TAB_BENCH_OUT) writeTuningRows(process.env.TAB_BENCH_OUT, pages, reads);
}

/** One part's row per walker, then its new-against-old ratios. */
function reportPart(name: string, idx: number[], pages: BenchPage[], reads: Record<Walker, Read[]>): void {
  const charsOf = (w: Walker) => idx.reduce((n, i) => n + reads[w][i].content.length, 0);
  const tokensOf = (w: Walker) => idx.reduce((n, i) => n + encode(reads[w][i].content).length, 0);
  for (const w of ["old", "new", "script"] as Walker[]) {
    const rs = idx.map((i) => reads[w][i]);
    const { recall, precision } = aggregate(idx.map((i) => scorePage(pages[i].truth, reads[w][i].content)));
    const share = rs.reduce((n, r) => n + r.annotated, 0) / (charsOf(w) || 1);
    const checked = rs.reduce((n, r) => n + r.checked, 0);
    const unique = rs.reduce((n, r) => n + (r.unique ?? 0), 0);
    const inPage = rs.flatMap((r) => (r.inPageMs === null ? [] : [r.inPageMs]));
    const cells = [
      [name, 11],
      [w, 8],
      [recall.toFixed(3), 8],
      [precision.toFixed(3), 11],
      [`${(share * 100).toFixed(1)}%`, 13],
      [(charsOf(w) / idx.length).toFixed(0), 12],
      [(tokensOf(w) / idx.length).toFixed(0), 13],
      [median(rs.map((r) => r.ms)).toFixed(0), 9],
      [inPage.length ? median(inPage).toFixed(0) : "-", 9],
      [String(rs.filter((r) => r.used === "body").length), 6],
      [`${unique}/${checked}`, 0],
    ] as const;
    console.log(cells.map(([v, width]) => v.padEnd(width)).join(""));
  }
  const ratio = (a: Walker, b: Walker, key: "ms" | "inPageMs") =>
    median(idx.map((i) => (reads[a][i][key] ?? Number.NaN) / (reads[b][i][key] ?? Number.NaN)));
  console.log(
    `  ${name}: characters new / old ${((charsOf("new") / charsOf("old")) * 100).toFixed(1)}% (target ≤ 40%), tokens ${((tokensOf("new") / tokensOf("old")) * 100).toFixed(1)}%; time, median of per-page ratios: new tool / old ${ratio("new", "old", "ms").toFixed(2)}, new / old on the same path ${ratio("script", "old", "ms").toFixed(2)}, in the page ${ratio("script", "old", "inPageMs").toFixed(2)}`,
  );
}

/** TAB_BENCH_OUT: the tuning part's per-page figures of the new walker (and the old one's recall). */
function writeTuningRows(file: string, pages: BenchPage[], reads: Record<Walker, Read[]>): void {
  const rows = pages.flatMap((p, i) =>
    isHeldOut(p)
      ? []
      : [
          {
            key: p.key,
            url: p.url,
            used: reads.new[i].used,
            recall: scorePage(p.truth, reads.new[i].content).recall,
            oldRecall: scorePage(p.truth, reads.old[i].content).recall,
            chars: reads.new[i].content.length,
            content: reads.new[i].content,
          },
        ],
  );
  writeFileSync(file, JSON.stringify(rows, null, 1));
}

await main();
