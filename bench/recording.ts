/**
 * Recording bench, inside workerd with the local Chromium, side by side: the same pages loaded
 * in a conversation that records its browser and in one that does not (alternating, so drift
 * hits both), then a minute of browsing with recording on and what it stored, priced at R2's
 * list price; and what the recorder adds to the bundle. Pages: the article set (real pages,
 * ../shared/data/article-extraction) served from 127.0.0.1. Run: `node bench/recording.ts`.
 */
import { startToolWorker } from "./start-worker.ts";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { loadPages } from "./article-set.ts";

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

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const pages = loadPages();
  const server = createServer((req, res) => {
    const page = pages[Number(new URL(req.url ?? "/", "http://x").pathname.slice(1)) || 0];
    if (!page) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = await startToolWorker(TOKEN);
  try {
    await worker.ready;
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
    const convs = { off: await newConv(false), on: await newConv(true) };
    // Warm both browsers (launch, first page) before timing.
    for (const conv of Object.values(convs)) {
      const tab = await tool(conv, "open_tab", { url: `${base}/0` });
      await tool(conv, "close_tab", { tab_id: tab.result.id });
    }

    // Overhead per page load: a new tab on the page until its load event, then closed.
    const times = {
      off: { wall: [] as number[], load: [] as number[] },
      on: { wall: [] as number[], load: [] as number[] },
    };
    for (let i = 1; i <= LOADS; i++) {
      const order = i % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
      for (const mode of order) {
        const started = performance.now();
        const tab = await tool(convs[mode], "open_tab", { url: `${base}/${i % pages.length}` });
        times[mode].wall.push(performance.now() - started);
        const nav = await tool(convs[mode], "execute_script", {
          target: "page",
          code: "performance.getEntriesByType('navigation')[0].loadEventEnd",
        });
        times[mode].load.push(Number(nav.result?.result ?? Number.NaN));
        await tool(convs[mode], "close_tab", { tab_id: tab.result.id });
      }
    }

    // A minute of browsing with recording on: open a page, scroll it three times, close it, next.
    const browsing = await newConv(true);
    const browseStart = performance.now();
    let opened = 0;
    while (performance.now() - browseStart < BROWSE_MS) {
      const tab = await tool(browsing, "open_tab", { url: `${base}/${(opened % (pages.length - 1)) + 1}` });
      opened += 1;
      for (let s = 0; s < 3; s++) await tool(browsing, "scroll", { tab_id: tab.result.id, delta_y: 600 });
      await tool(browsing, "close_tab", { tab_id: tab.result.id });
    }
    const minutes = (performance.now() - browseStart) / 60_000;
    const recordings: { size: number; chunks: number }[] = [];
    for (let cursor: string | null = ""; cursor !== null; ) {
      const page = (await call(
        `/v1/conversations/${browsing}/recordings?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      )) as { data: { size: number; chunks: number }[]; next_cursor: string | null };
      recordings.push(...page.data);
      cursor = page.next_cursor;
    }
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
  } finally {
    await worker.dispose();
    server.close();
  }
}

await main();
