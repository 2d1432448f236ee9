/**
 * The warm first tab call, alone (issue 34's target: under 300 ms). In workerd (wrangler's local
 * runtime, the local Chromium through the BROWSER binding), the fleet with its defaults but
 * BROWSER_MAX_SESSIONS=3 and a 10-minute idle time: one conversation launches a browser and keeps
 * it open; then, one after another, each of
 * `ROUNDS` new conversations waits until the browser has its spare context ready (what a
 * conversation arriving on a warm fleet finds) and makes its first call, `open_tab` of a local
 * page, timed from the HTTP request to its answer, then is deleted (its context closes: the
 * browser never fills up). Beside it, the same conversation's second
 * `open_tab` (a kept context, a new page) and a `list_tabs` of a conversation with no tab (the
 * HTTP and Durable Object hops alone: worker → conversation → fleet and back). The load average
 * is printed before and after: on a busy machine every figure grows.
 * Run: `node bench/fleet-warm.ts`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { unstable_startWorker } from "wrangler";
import { buildWeb } from "../scripts/build-web.ts";
import { type BenchCall, benchCaller } from "./start-worker.ts";

const TOKEN = "bench-admin-token";
const ROUNDS = Number(process.env.FLEET_WARM_ROUNDS ?? 20);
/** How long a round waits for the browser's spare context before it is timed anyway. */
const SPARE_WAIT_MS = 30_000;

const PAGE = `<!doctype html><title>Page</title><main><h1>Page</h1>${"<p>Some text of the page.</p>".repeat(40)}</main>`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

const load = () =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(" / ");

/** Cirrus in workerd: the fleet's defaults but 3 browsers and a 10-minute idle time. */
function startFleetWorker() {
  const text = (value: string) => ({ type: "plain_text" as const, value });
  const vars = {
    ADMIN_TOKEN: TOKEN,
    ALLOW_PRIVATE_NETWORK: "true",
    OPENAI_API_KEY: "",
    BROWSER_MAX_SESSIONS: "3",
    // The launching conversation keeps the browser open through the whole run (its context is not idle-closed).
    BROWSER_IDLE_MS: "600000",
    BROWSER_LAUNCH_INTERVAL_MS: "1",
    BROWSER_DAILY_MINUTES: "100000",
  };
  return unstable_startWorker({
    config: "wrangler.toml",
    bindings: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, text(v)])),
    dev: {
      server: { port: 0 },
      inspector: false,
      logLevel: "error",
      persist: false,
      remote: false,
    },
  } as Parameters<typeof unstable_startWorker>[0]);
}

/** The ms one tool call takes, from the HTTP request to its answer. */
async function timed(
  call: BenchCall,
  conv: string,
  name: string,
  args: Record<string, unknown>,
): Promise<number> {
  const start = performance.now();
  await call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args });
  return performance.now() - start;
}

const newConversation = async (call: BenchCall) => (await call("/v1/conversations", {})).id as string;

/** Whether the fleet has a spare context ready within SPARE_WAIT_MS. */
async function spareReady(call: BenchCall): Promise<boolean> {
  const until = performance.now() + SPARE_WAIT_MS;
  while (performance.now() < until) {
    if (((await call("/v1/usage/browsers")).spares as number) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** ROUNDS new conversations one after another: hops, then first and second open_tab on a spare. */
async function rounds(call: BenchCall, origin: string) {
  const first: number[] = [];
  const second: number[] = [];
  const hops: number[] = [];
  let withoutSpare = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const conv = await newConversation(call);
    hops.push(await timed(call, await newConversation(call), "list_tabs", {}));
    if (!(await spareReady(call))) withoutSpare++;
    first.push(await timed(call, conv, "open_tab", { url: `${origin}/first/${i}` }));
    second.push(await timed(call, conv, "open_tab", { url: `${origin}/second/${i}` }));
    // The conversation ends (its context closes), so the browser never fills up and every round finds it warm.
    await call(`/v1/conversations/${conv}`, undefined, "DELETE");
  }
  return { first, second, hops, withoutSpare };
}

function report(loadBefore: string, launchMs: number, figures: Awaited<ReturnType<typeof rounds>>): void {
  const { first, second, hops, withoutSpare } = figures;
  const row = (name: string, values: number[]) =>
    console.log(
      `  ${name.padEnd(58)}p50 ${percentile(values, 50).toFixed(0).padStart(5)}   p95 ${percentile(values, 95).toFixed(0).padStart(5)} ms`,
    );
  console.log(
    `warm first tab call: ${ROUNDS} new conversations one after another on a warm fleet browser (spare ready), workerd, local Chromium; load average (1/5/15 min) ${loadBefore} before, ${load()} after`,
  );
  console.log(`  the launching conversation's first open_tab (not counted): ${launchMs.toFixed(0)} ms`);
  row("first open_tab of a conversation, warm browser (< 300)", first);
  row("second open_tab of the same conversation (kept context)", second);
  row("list_tabs with no tab (HTTP + Durable Object hops)", hops);
  if (withoutSpare > 0) console.log(`  ${withoutSpare} round(s) found no spare within ${SPARE_WAIT_MS} ms`);
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  buildWeb();
  const pages = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const worker = await startFleetWorker();
  const loadBefore = load();
  try {
    await worker.ready;
    const call = benchCaller(worker, TOKEN);
    const launchMs = await timed(call, await newConversation(call), "open_tab", { url: `${origin}/warm-up` });
    report(loadBefore, launchMs, await rounds(call, origin));
  } finally {
    await worker.dispose();
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  }
}

await main();
