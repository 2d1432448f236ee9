/**
 * Recording bench, inside workerd with the local Chromium, side by side: the same pages loaded
 * in a conversation that records its browser and in one that does not (alternating, so drift
 * hits both), then a minute of browsing with recording on and what it stored, priced at R2's
 * list price; and what the recorder adds to the bundle. Pages: the article set (real pages,
 * ../shared/data/article-extraction) served from 127.0.0.1. Run: `node bench/recording.ts`.
 */
import { startToolWorker } from "./start-worker.ts";
import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type BenchPage, loadPages } from "./article-set.ts";

const TOKEN = "bench-admin-token";
/** Pages loaded per mode for the overhead. */
const LOADS = 16;
const BROWSE_MS = 60_000;
/** R2 Standard list price (developers.cloudflare.com/r2/pricing, read 2026-06). */
const R2 = { storagePerGbMonth: 0.015, classAPerMillion: 4.5, classBPerMillion: 0.36, date: "2026-06" };
const ROOT = join(import.meta.dirname, "..");

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;

/** The recorder's script and the dashboard's player, as shipped. */
function bundleFigures(): string[] {
  const recorder = join(ROOT, "node_modules/@rrweb/record/umd/record.min.js");
  const replay = join(ROOT, "web/dist/dashboard/replay.js");
  const size = (f: string) => statSync(f).size;
  const gz = (f: string) => gzipSync(readFileSync(f)).length;
  return [
    `  rrweb recorder (in the Worker, sent to each recorded page): ${kib(size(recorder))} minified, ${kib(gz(recorder))} gzip`,
    `  dashboard player chunk (dashboard/replay.js, loaded on Play): ${kib(size(replay))} minified, ${kib(gz(replay))} gzip`,
  ];
}

/** Serves page i of the article set at /i (page 0 at /). */
function servePages(pages: BenchPage[]): Server {
  return createServer((req, res) => {
    const page = pages[Number(new URL(req.url ?? "/", "http://x").pathname.slice(1)) || 0];
    if (!page) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page.bytes);
  });
}

type Worker = Awaited<ReturnType<typeof startToolWorker>>;

/** The admin API of the worker: raw calls, tool calls and new conversations. */
function apiOf(worker: Worker) {
  const call = async (path: string, body?: unknown) => {
    const res = await worker.fetch(`http://bench.local${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: bench reads loosely
    return (await res.json()) as any;
  };
  const tool = (conv: string, name: string, args: Record<string, unknown>) =>
    call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args });
  const newConv = async (recording: boolean) =>
    ((await call("/v1/conversations", { recording })) as { id: string }).id;
  return { call, tool, newConv };
}
type Api = ReturnType<typeof apiOf>;
type Convs = { off: string; on: string };
type Times = Record<keyof Convs, { wall: number[]; load: number[] }>;

/** Overhead per page load: a new tab on the page until its load event, then closed; modes alternate. */
async function timeLoads({ tool }: Api, convs: Convs, base: string, pageCount: number): Promise<Times> {
  const times = {
    off: { wall: [] as number[], load: [] as number[] },
    on: { wall: [] as number[], load: [] as number[] },
  };
  for (let i = 1; i <= LOADS; i++) {
    const order = i % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
    for (const mode of order) {
      const started = performance.now();
      const tab = await tool(convs[mode], "open_tab", { url: `${base}/${i % pageCount}` });
      times[mode].wall.push(performance.now() - started);
      const nav = await tool(convs[mode], "execute_script", {
        target: "page",
        code: "performance.getEntriesByType('navigation')[0].loadEventEnd",
      });
      times[mode].load.push(Number(nav.result?.result ?? Number.NaN));
      await tool(convs[mode], "close_tab", { tab_id: tab.result.id });
    }
  }
  return times;
}

/** A minute of browsing with recording on: open a page, scroll it three times, close it, next. */
async function browseAMinute({ tool }: Api, browsing: string, base: string, pageCount: number) {
  const browseStart = performance.now();
  let opened = 0;
  while (performance.now() - browseStart < BROWSE_MS) {
    const tab = await tool(browsing, "open_tab", { url: `${base}/${(opened % (pageCount - 1)) + 1}` });
    opened += 1;
    for (let s = 0; s < 3; s++) await tool(browsing, "scroll", { tab_id: tab.result.id, delta_y: 600 });
    await tool(browsing, "close_tab", { tab_id: tab.result.id });
  }
  const minutes = (performance.now() - browseStart) / 60_000;
  return { opened, minutes };
}

type Recording = { size: number; chunks: number };

/** Every recording of the conversation, page by page. */
async function listRecordings({ call }: Api, conv: string): Promise<Recording[]> {
  const recordings: Recording[] = [];
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page = (await call(
      `/v1/conversations/${conv}/recordings?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    )) as { data: Recording[]; next_cursor: string | null };
    recordings.push(...page.data);
    cursor = page.next_cursor;
  }
  return recordings;
}

function report(times: Times, opened: number, minutes: number, recordings: Recording[]): void {
  const bytes = recordings.reduce((s, r) => s + r.size, 0);
  // R2 writes: the meta at the start, then a chunk and the meta at each write.
  const writes = recordings.reduce((s, r) => s + 1 + 2 * r.chunks, 0);
  const perMinute = bytes / minutes;
  const hourGb = (perMinute * 60) / 1e9;
  const hourWrites = (writes / minutes) * 60;
  const ttlMonths = 30 / 30.4;
  const storageCost = hourGb * R2.storagePerGbMonth * ttlMonths;
  const writeCost = (hourWrites / 1e6) * R2.classAPerMillion;

  const row = (label: string, off: number, on: number) =>
    `  ${label.padEnd(34)} ${off.toFixed(0).padStart(6)} ms  ${on.toFixed(0).padStart(6)} ms  ${(on - off >= 0 ? "+" : "") + (on - off).toFixed(0)} ms`;
  console.log("\nbrowser recording (local Chromium, inside workerd; article-set pages from 127.0.0.1)");
  console.log(`  per page load, median of ${LOADS}:          off       on    added`);
  console.log(row("open_tab until load (tool call)", median(times.off.wall), median(times.on.wall)));
  console.log(row("page's own load event (in-page)", median(times.off.load), median(times.on.load)));
  console.log(
    `  a minute of browsing (${opened} pages opened, scrolled 3×, closed): ${kib(perMinute)}/min of events, ${(writes / minutes).toFixed(0)} R2 writes/min`,
  );
  console.log(
    `  an hour kept ${30} days in R2 (list price ${R2.date}): ${(hourGb * 1000).toFixed(1)} MB → $${storageCost.toFixed(5)} storage + $${writeCost.toFixed(4)} writes (Class A) = $${(storageCost + writeCost).toFixed(4)}`,
  );
  for (const line of bundleFigures()) console.log(line);
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const pages = loadPages();
  const server = servePages(pages);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = await startToolWorker(TOKEN);
  try {
    await worker.ready;
    const api = apiOf(worker);
    const convs = { off: await api.newConv(false), on: await api.newConv(true) };
    // Warm both browsers (launch, first page) before timing.
    for (const conv of Object.values(convs)) {
      const tab = await api.tool(conv, "open_tab", { url: `${base}/0` });
      await api.tool(conv, "close_tab", { tab_id: tab.result.id });
    }
    const times = await timeLoads(api, convs, base, pages.length);
    const browsing = await api.newConv(true);
    const { opened, minutes } = await browseAMinute(api, browsing, base, pages.length);
    report(times, opened, minutes, await listRecordings(api, browsing));
  } finally {
    await worker.dispose();
    server.close();
  }
}

await main();
