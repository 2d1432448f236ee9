/**
 * get_tab_content bench, inside workerd (wrangler's local runtime) with the local Chromium: the
 * pages of the article-extraction set served locally (their own scripts and remote resources
 * blocked by a CSP, so the run is offline and repeatable), each read with the tool's defaults and
 * with the walker it replaced (bench/legacy-tab-walker.ts, through execute_script), side by side;
 * `script` is the new walker through execute_script too (its main part only, no outline), so the
 * two walkers' times compare on the same path.
 * Per walker: recall and precision of the true article body (word 4-shingles), the share of the
 * content that is selector annotations, characters per page, time per call, how often the whole
 * body was read, and whether every annotation on a sample of pages matches exactly one element.
 * Pages split by site: a tuning part and a held-out part (hash of the host ≡ 0 mod 5), reported
 * apart. Run: `node bench/tab-content.ts` (TAB_BENCH_SPLIT=tune|held, TAB_BENCH_OUT=file writes
 * the tuning part's per-page figures).
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { unstable_startWorker } from "wrangler";
import { decodeBody } from "../durable-objects/engine/net/charset.ts";
import { buildWeb } from "../scripts/build-web.ts";
import { aggregate, type BenchPage, loadPages, scorePage } from "./article-set.ts";
import { legacyExtractionScript } from "./legacy-tab-walker.ts";
import { readPageScript } from "../durable-objects/engine/browser/page-content.ts";

const TOKEN = "bench-admin-token";
/** get_tab_content's default cap, which the old walker's content is cut to as well. */
const DEFAULT_CHARS = 20_000;
/** Every this-many-th page has each of its annotations checked against the DOM. */
const SAMPLE_EVERY = 4;
/** Scripts and remote resources are blocked: the page is what the crawler saved. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'";
/** A selector annotation: ` {selector}` after a heading, link, button or field. */
const ANNOTATION = / \{([^{}\n]+)\}/g;

type Walker = "new" | "old" | "script";
interface Read {
  content: string;
  used: string;
  ms: number;
  annotated: number;
  unique: number | null;
  checked: number;
}

/** FNV-1a of a string, for the site split. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
const host = (url: string) => new URL(url).hostname.replace(/^www\./, "");
/** Whether a page's site is held out from tuning. */
export const isHeldOut = (page: { url: string }) => fnv(host(page.url)) % 5 === 0;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  buildWeb();
  const split = process.env.TAB_BENCH_SPLIT;
  const pages = loadPages().filter((p) => p.url && (!split || (split === "held") === isHeldOut(p)));
  const byKey = new Map(pages.map((p) => [p.key, p]));
  const server = createServer((req, res) => {
    const page = byKey.get((req.url ?? "").replace(/^\/p\//, ""));
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    // Decoded by its own charset here (as the extraction bench does), served as UTF-8.
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP });
    res.end(decodeBody(page.bytes, null, true));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const text = (value: string) => ({ type: "plain_text" as const, value });
  const worker = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: { ADMIN_TOKEN: text(TOKEN), ALLOW_PRIVATE_NETWORK: text("true"), OPENAI_API_KEY: text("") },
    dev: { server: { port: 0 }, inspector: false, logLevel: "error", remote: false },
  });
  try {
    await worker.ready;
    const call = async (path: string, body?: unknown, method = "POST") => {
      const res = await worker.fetch(`http://bench.local${path}`, {
        method: body === undefined ? "GET" : method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const conv = (await call("/v1/conversations", {})).id as string;
    // biome-ignore lint/suspicious/noExplicitAny: tool results are read loosely
    const tool = async (name: string, args: Record<string, unknown>): Promise<any> =>
      ((await call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args })) as { result: unknown })
        .result;
    const script = (tabId: number, code: string) =>
      tool("execute_script", { target: "page", tab_id: tabId, code });

    const readWith = async (walker: Walker, tabId: number, check: boolean): Promise<Read> => {
      const start = performance.now();
      let content: string;
      let used: string;
      if (walker === "new") {
        const r = await tool("get_tab_content", { tab_id: tabId });
        [content, used] = [r.content, r.used_selector];
      } else if (walker === "script") {
        const r = (await script(tabId, readPageScript(undefined))).result;
        [content, used] = [r.content, r.used_selector];
      } else {
        const r = (await script(tabId, legacyExtractionScript(undefined))).result;
        [content, used] = [String(r.content).slice(0, DEFAULT_CHARS), r.used_selector];
      }
      const ms = performance.now() - start;
      const selectors = [...content.matchAll(ANNOTATION)].map((m) => m[1]);
      const annotated = selectors.reduce((n, s) => n + s.length + 3, 0);
      let unique: number | null = null;
      if (check && selectors.length) {
        const counts = (
          await script(
            tabId,
            `${JSON.stringify(selectors)}.map((s) => { try { return document.querySelectorAll(s).length; } catch { return -1; } })`,
          )
        ).result as number[];
        unique = counts.filter((n) => n === 1).length;
      }
      return { content, used, ms, annotated, unique, checked: check ? selectors.length : 0 };
    };

    const reads: Record<Walker, Read[]> = { new: [], old: [], script: [] };
    for (const [i, page] of pages.entries()) {
      const tab = await tool("open_tab", { url: `${origin}/p/${page.key}` });
      // Each walker reads first on a third of the pages (the first read pays the page's style and layout).
      const walkers: Walker[] = ["new", "old", "script"];
      const order = [...walkers.slice(i % 3), ...walkers.slice(0, i % 3)];
      for (const w of order) reads[w].push(await readWith(w, tab.id, i % SAMPLE_EVERY === 0));
      await tool("close_tab", { tab_id: tab.id });
    }
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
    "split      walker  recall  precision  annotations  chars/page  ms/call (median, mean)  body  unique",
  );
  const parts: [string, (p: BenchPage) => boolean][] = [
    ["tuning", (p) => !isHeldOut(p)],
    ["held-out", isHeldOut],
    ["all", () => true],
  ];
  for (const [name, inPart] of parts) {
    const idx = pages.flatMap((p, i) => (inPart(p) ? [i] : []));
    if (!idx.length) continue;
    for (const w of ["old", "new", "script"] as Walker[]) {
      const rs = idx.map((i) => reads[w][i]);
      const { recall, precision } = aggregate(idx.map((i) => scorePage(pages[i].truth, reads[w][i].content)));
      const chars = rs.reduce((n, r) => n + r.content.length, 0);
      const share = rs.reduce((n, r) => n + r.annotated, 0) / (chars || 1);
      const checked = rs.reduce((n, r) => n + r.checked, 0);
      const unique = rs.reduce((n, r) => n + (r.unique ?? 0), 0);
      console.log(
        `${name.padEnd(11)}${w.padEnd(8)}${recall.toFixed(3).padEnd(8)}${precision.toFixed(3).padEnd(11)}${`${(share * 100).toFixed(1)}%`.padEnd(13)}${mean(
          rs.map((r) => r.content.length),
        )
          .toFixed(0)
          .padEnd(
            12,
          )}${`${median(rs.map((r) => r.ms)).toFixed(0)}, ${mean(rs.map((r) => r.ms)).toFixed(0)}`.padEnd(24)}${String(rs.filter((r) => r.used === "body").length).padEnd(6)}${unique}/${checked}`,
      );
    }
  }
  const newChars = mean(reads.new.map((r) => r.content.length));
  const oldChars = mean(reads.old.map((r) => r.content.length));
  console.log(
    `  characters per page, new / old: ${((newChars / oldChars) * 100).toFixed(1)}% (target ≤ 40%)`,
  );
  if (process.env.TAB_BENCH_OUT) {
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
    writeFileSync(process.env.TAB_BENCH_OUT, JSON.stringify(rows, null, 1));
  }
}

await main();
