/**
 * Live-view bench, inside workerd with the local Chromium: time from opening a tab's live view to
 * its first frame, frames per second of a page that repaints all the time (bounded by
 * LIVE_VIEW_MAX_FPS), and the latency from a click through the input route to the frame that
 * shows it (p50/p95). Run: `node bench/live-view.ts`.
 */
import { startToolWorker } from "./start-worker.ts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SseReader } from "../test/support/sse.ts";

const TOKEN = "bench-admin-token";
const CLICKS = 15;
const FPS_WINDOW_MS = 3_000;

const STATIC = `<!doctype html><title>Clicks</title><body style="margin:0"><div id="n" style="font:40px sans-serif;padding:40px">0</div>
<script>let n = 0; addEventListener("click", () => { document.getElementById("n").textContent = String(++n); });</script></body>`;
const ANIMATED = `<!doctype html><title>Animated</title><body style="margin:0"><div id="b" style="width:100vw;height:100vh"></div>
<script>let n = 0; const b = document.getElementById("b"); (function t() { b.style.background = "hsl(" + (n++ * 7 % 360) + ",80%,50%)"; requestAnimationFrame(t); })();</script></body>`;

const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];

/** Reads SSE frames off a response, calling `onFrame` with each frame's data. */
function frames(res: { body: unknown }, onFrame: (data: string) => void): () => void {
  const sse = new SseReader<{ data: string }>(res.body as ReadableStream<Uint8Array>);
  void (async () => {
    for (let m = await sse.next().catch(() => null); m; m = await sse.next().catch(() => null))
      onFrame(m.data.data);
  })();
  return () => void sse.close();
}

type Worker = Awaited<ReturnType<typeof startToolWorker>>;
type Call = (path: string, body?: unknown) => ReturnType<Worker["fetch"]>;

/** An admin API call to the worker: GET, or POST with a JSON body. */
function callerOf(worker: Worker): Call {
  return (path, body) =>
    worker.fetch(`http://bench.local${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/**
 * Tab 1's live view: the time to its first frame (the browser is already running), then per click
 * the time until a different frame arrives (the click changes the counter), sorted.
 */
async function firstFrameAndClicks(
  call: Call,
  conv: string,
): Promise<{ firstMs: number; latencies: number[] }> {
  const openedAt = performance.now();
  let firstAt = 0;
  let latest = "";
  const waiters: ((data: string) => void)[] = [];
  const stop = frames(await call(`/v1/conversations/${conv}/tabs/1/live`), (data) => {
    if (!firstAt) firstAt = performance.now();
    latest = data;
    for (const w of waiters.splice(0)) w(data);
  });
  while (!firstAt) await new Promise((r) => setTimeout(r, 5));
  const firstMs = firstAt - openedAt;

  const latencies: number[] = [];
  for (let i = 0; i < CLICKS; i++) {
    const before = latest;
    const changed = new Promise<void>((resolve) => {
      const check = (d: string) => (d !== before ? resolve() : waiters.push(check));
      waiters.push(check);
    });
    const start = performance.now();
    await call(`/v1/conversations/${conv}/tabs/1/input`, { type: "click", x: 100, y: 100 });
    await changed;
    latencies.push(performance.now() - start);
  }
  stop();
  latencies.sort((a, b) => a - b);
  return { firstMs, latencies };
}

/** Frames per second of a page that repaints every animation frame (tab 2), after half a second. */
async function animatedFps(call: Call, conv: string, base: string): Promise<number> {
  await call(`/v1/conversations/${conv}/tools/open_tab`, { arguments: { url: `${base}/animated` } });
  let count = 0;
  const stopAnimated = frames(await call(`/v1/conversations/${conv}/tabs/2/live`), () => count++);
  await new Promise((r) => setTimeout(r, 500));
  const from = count;
  await new Promise((r) => setTimeout(r, FPS_WINDOW_MS));
  const fps = (count - from) / (FPS_WINDOW_MS / 1000);
  stopAnimated();
  return fps;
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  const pages = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(req.url === "/animated" ? ANIMATED : STATIC);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const worker = await startToolWorker(TOKEN);
  try {
    await worker.ready;
    const call = callerOf(worker);
    const conv = ((await (await call("/v1/conversations", {})).json()) as { id: string }).id;
    await call(`/v1/conversations/${conv}/tools/open_tab`, { arguments: { url: `${base}/static` } });
    const { firstMs, latencies } = await firstFrameAndClicks(call, conv);
    const fps = await animatedFps(call, conv, base);

    console.log("\nlive view (local Chromium, inside workerd)");
    console.log(`  time to first frame:            ${firstMs.toFixed(0)} ms`);
    console.log(`  frames per second (animated):   ${fps.toFixed(1)} (LIVE_VIEW_MAX_FPS 10)`);
    console.log(
      `  click → frame showing it:       p50 ${pct(latencies, 50).toFixed(0)} ms / p95 ${pct(latencies, 95).toFixed(0)} ms (${CLICKS} clicks)`,
    );
  } finally {
    await worker.dispose();
    pages.close();
  }
}

await main();
