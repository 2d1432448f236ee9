/**
 * Remote-browser bench, measured inside workerd (wrangler's local dev runtime with the local
 * Chromium): open_tab + get_tab_content latency on a local page (p50/p95) and how many browsers
 * a conversation launches for 20 tab tool calls (target: 1). Run: `node bench/browser.ts`.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type BenchCall, benchCaller, startToolWorker } from "./start-worker.ts";

/** Measured open_tab + get_tab_content pairs (after one warm-up that launches the browser). */
const ROUNDS = 20;
/** Tab tool calls made by one conversation when counting launches. */
const TAB_CALLS = 20;
const TOKEN = "bench-admin-token";

const PAGE = `<!doctype html><title>Bench page</title><main id="app"></main><script>
document.getElementById("app").innerHTML = "<h1>Products</h1><ul>" +
  Array.from({ length: 50 }, (_, i) => '<li><a href="/p/' + i + '">Product ' + i + '</a> <button>Buy</button></li>').join("") +
  "</ul><form><input name=q placeholder=Search><button type=submit>Go</button></form>";
</script>`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

type Tool = (
  conv: string,
  name: string,
  args: Record<string, unknown>,
) => Promise<{ result: Record<string, unknown> }>;

/** The first pair (it launches the browser), then ROUNDS timed open_tab + get_tab_content pairs, sorted. */
async function timePairs(tool: Tool, conv: string, pageUrl: string) {
  const coldStart = performance.now();
  const warm = await tool(conv, "open_tab", { url: pageUrl });
  await tool(conv, "get_tab_content", { tab_id: warm.result.id });
  const coldMs = performance.now() - coldStart;
  await tool(conv, "close_tab", { tab_id: warm.result.id });
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    const tab = await tool(conv, "open_tab", { url: pageUrl });
    const read = await tool(conv, "get_tab_content", { tab_id: tab.result.id });
    times.push(performance.now() - start);
    if (!String(read.result.content).includes("Product 49")) throw new Error("page content missing");
    await tool(conv, "close_tab", { tab_id: tab.result.id });
  }
  times.sort((a, b) => a - b);
  return { coldMs, times };
}

/** TAB_CALLS tab tool calls in one conversation; how many browsers it launched. */
async function countLaunches(call: BenchCall, tool: Tool, counted: string, pageUrl: string): Promise<number> {
  const first = await tool(counted, "open_tab", { url: pageUrl });
  const tabId = first.result.id;
  const cycle = [
    () => tool(counted, "list_tabs", {}),
    () => tool(counted, "get_tab_content", { tab_id: tabId, max_length: 500 }),
    () => tool(counted, "open_tab", { url: pageUrl, tab_id: tabId }),
    () => tool(counted, "activate_tab", { tab_id: tabId }),
  ];
  for (let i = 1; i < TAB_CALLS; i++) await cycle[i % cycle.length]();
  const live = (await call(`/v1/conversations/${counted}/tabs`)) as { browser: { launches: number } };
  return live.browser.launches;
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const pages = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/`;
  const worker = await startToolWorker(TOKEN);
  try {
    await worker.ready;
    const call = benchCaller(worker, TOKEN);
    const tool: Tool = (conv, name, args) =>
      call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args }) as Promise<{
        result: Record<string, unknown>;
      }>;
    const newConversation = async () => (await call("/v1/conversations", {})).id as string;

    const conv = await newConversation();
    const { coldMs, times } = await timePairs(tool, conv, pageUrl);
    const counted = await newConversation();
    const launches = await countLaunches(call, tool, counted, pageUrl);

    console.log("browser bench (workerd via wrangler, local Chromium, local page)");
    console.log(`  first open_tab + get_tab_content (launches the browser): ${coldMs.toFixed(0)} ms`);
    console.log(
      `  open_tab + get_tab_content over ${ROUNDS} rounds: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
    );
    console.log(`  browser launches per ${TAB_CALLS} tab calls: ${launches} (target 1)`);
    await call(`/v1/conversations/${conv}`, {}, "DELETE");
    await call(`/v1/conversations/${counted}`, {}, "DELETE");
  } finally {
    await worker.dispose();
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  }
}

await main();
