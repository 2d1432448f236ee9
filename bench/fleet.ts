/**
 * The browser fleet bench, inside workerd (wrangler's local runtime, the local Chromium through
 * the BROWSER binding): 50 conversations that each open two local pages and read them (open_tab,
 * get_tab_content, twice), 40 of them ten at a time and then 10 one after another, run twice
 * side by side on a fresh in-memory state:
 * - the fleet: BROWSER_MAX_SESSIONS=3 (8 conversations per browser, the default);
 * - one browser per conversation, the behaviour before the fleet: BROWSER_CONTEXTS_PER_SESSION=1
 *   and more sessions than conversations, so every conversation launches its own browser.
 * Both keep a browser BROWSER_IDLE_MS (60 s, the default) after its last use and launch without
 * pacing (BROWSER_LAUNCH_INTERVAL_MS=1: the local binding has no platform limit to respect).
 * Per side: conversations that succeeded, launches, peak browsers alive, p50/p95 wait for a
 * browser context (the fleet's own measure: queue, launch and context creation), p50/p95 of the
 * first tab call of the last 10 conversations (the fleet's browsers are warm by then), wall time
 * of the work, and total browser-seconds once every browser was released (GET /v1/usage/browsers).
 * Before the fleet a conversation's browser stayed 10 minutes (BROWSER_IDLE_MS was 600 000): that
 * side is also shown with the 9 extra idle minutes per browser added, as a derived figure.
 * The fleet side also runs without its spare contexts (BROWSER_SPARE_CONTEXTS=0) when
 * FLEET_BENCH_SIDES lists `nospare` (default `fleet,old`; `fleet` alone skips the old side).
 * Run: `node bench/fleet.ts`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { unstable_startWorker } from "wrangler";
import { buildWeb } from "../scripts/build-web.ts";
import { type BenchCall, benchCaller } from "./start-worker.ts";

const TOKEN = "bench-admin-token";
const CONVERSATIONS = 50;
/** Conversations in flight at once in the first part; the rest go one after another. */
const CONCURRENCY = 10;
const SEQUENTIAL = 10;
const IDLE_MS = 60_000;
/** What the old idle time added per browser, beyond IDLE_MS (derived figure). */
const OLD_EXTRA_IDLE_S = (600_000 - IDLE_MS) / 1000;

const page = (name: string) => `<!doctype html><title>${name}</title><main id="app"></main><script>
document.getElementById("app").innerHTML = "<h1>${name}</h1><ul>" +
  Array.from({ length: 40 }, (_, i) => '<li><a href="/p/' + i + '">${name} item ' + i + '</a> <button>Add</button></li>').join("") +
  "</ul><p>End of ${name}.</p>";
</script>`;

interface Side {
  label: string;
  vars: Record<string, string>;
}

interface FleetReport {
  sessions: number;
  launches: number;
  peak_sessions: number;
  browser_seconds_today: number;
  waits: { count: number; p50_ms: number | null; p95_ms: number | null };
}

interface Figures {
  label: string;
  succeeded: number;
  launches: number;
  peak: number;
  waitP50: number | null;
  waitP95: number | null;
  firstCallP50: number;
  firstCallP95: number;
  wallS: number;
  browserSeconds: number;
  releasedS: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/** Cirrus in workerd with the side's browser settings on top of the bench's own. */
function startSideWorker(side: Side) {
  const text = (value: string) => ({ type: "plain_text" as const, value });
  const vars = {
    ADMIN_TOKEN: TOKEN,
    ALLOW_PRIVATE_NETWORK: "true",
    OPENAI_API_KEY: "",
    BROWSER_IDLE_MS: String(IDLE_MS),
    BROWSER_LAUNCH_INTERVAL_MS: "1",
    BROWSER_DAILY_MINUTES: "100000",
    // Below TOOL_TIMEOUT_MS (120 s), so a call that waits too long answers browser_busy, not a time-out.
    BROWSER_QUEUE_TIMEOUT_MS: "100000",
    ...side.vars,
  };
  return unstable_startWorker({
    config: "wrangler.toml",
    bindings: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, text(v)])),
    dev: { server: { port: 0 }, inspector: false, logLevel: "error", persist: false, remote: false },
  } as Parameters<typeof unstable_startWorker>[0]);
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are read loosely
type Tool = (conv: string, name: string, args: Record<string, unknown>) => Promise<any>;

const toolOf =
  (call: BenchCall): Tool =>
  async (conv, name, args) =>
    ((await call(`/v1/conversations/${conv}/tools/${name}`, { arguments: args })) as { result: unknown })
      .result;

/** One conversation's work; the first tab call's time, or null when it failed. */
async function converse(tool: Tool, label: string, origin: string, conv: string): Promise<number | null> {
  try {
    const start = performance.now();
    const a = await tool(conv, "open_tab", { url: `${origin}/a` });
    const first = performance.now() - start;
    const readA = await tool(conv, "get_tab_content", { tab_id: a.id });
    const b = await tool(conv, "open_tab", { url: `${origin}/b` });
    const readB = await tool(conv, "get_tab_content", { tab_id: b.id });
    const read =
      String(readA.content).includes("End of Page A") && String(readB.content).includes("End of Page B");
    return read ? first : null;
  } catch (err) {
    console.log(`  ${label}: a conversation failed: ${(err as Error).message.slice(0, 200)}`);
    return null;
  }
}

/** The burst, CONCURRENCY at a time, then the last SEQUENTIAL one by one (their first tab calls kept). */
async function work(convs: string[], run: (conv: string) => Promise<number | null>) {
  const burst = convs.slice(0, CONVERSATIONS - SEQUENTIAL);
  const results: (number | null)[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < burst.length) results.push(await run(burst[next++]));
    }),
  );
  const firstCalls: number[] = [];
  for (const conv of convs.slice(CONVERSATIONS - SEQUENTIAL)) {
    const first = await run(conv);
    results.push(first);
    if (first !== null) firstCalls.push(first);
  }
  return { results, firstCalls };
}

/**
 * Every browser is released IDLE_MS after its last use (the fleet's alarm): polls the usage report,
 * from `afterWork` on, until no browser is alive.
 */
async function untilReleased(
  call: BenchCall,
  label: string,
  afterWork: FleetReport,
  started: number,
  wallS: number,
): Promise<FleetReport> {
  let report = afterWork;
  while (report.sessions > 0) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    report = (await call("/v1/usage/browsers")) as unknown as FleetReport;
    if (performance.now() - started > wallS * 1000 + IDLE_MS + 120_000)
      throw new Error(`${label}: ${report.sessions} browser(s) still alive long after the idle time`);
  }
  return report;
}

async function runSide(side: Side, origin: string): Promise<Figures> {
  const worker = await startSideWorker(side);
  try {
    await worker.ready;
    const call = benchCaller(worker, TOKEN);
    const tool = toolOf(call);
    const convs: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) convs.push((await call("/v1/conversations", {})).id as string);
    const started = performance.now();
    const { results, firstCalls } = await work(convs, (conv) => converse(tool, side.label, origin, conv));
    const wallS = (performance.now() - started) / 1000;
    const afterWork = (await call("/v1/usage/browsers")) as unknown as FleetReport;
    const report = await untilReleased(call, side.label, afterWork, started, wallS);
    return {
      label: side.label,
      succeeded: results.filter((r) => r !== null).length,
      launches: report.launches,
      peak: report.peak_sessions,
      waitP50: afterWork.waits.p50_ms,
      waitP95: afterWork.waits.p95_ms,
      firstCallP50: percentile(firstCalls, 50),
      firstCallP95: percentile(firstCalls, 95),
      wallS,
      browserSeconds: report.browser_seconds_today,
      releasedS: (performance.now() - started) / 1000,
    };
  } finally {
    await worker.dispose();
  }
}

function print(fleet: Figures, old: Figures | null, noSpare: Figures | null): void {
  const n = (v: number | null, digits = 0) => (v === null ? "–" : v.toFixed(digits));
  const sides = [fleet, noSpare, old].filter((f): f is Figures => f !== null);
  const row = (name: string, cell: (f: Figures) => string) =>
    console.log(`  ${name.padEnd(44)}${sides.map((f) => cell(f).padEnd(22)).join("")}`);
  console.log(
    `browser fleet bench: ${CONVERSATIONS} conversations × (open_tab + get_tab_content) × 2 local pages, ${CONVERSATIONS - SEQUENTIAL} ${CONCURRENCY} at a time then ${SEQUENTIAL} one by one; workerd, local Chromium`,
  );
  row("", (f) => f.label);
  row("conversations succeeded", (f) => `${f.succeeded}/${CONVERSATIONS}`);
  row("browser launches", (f) => String(f.launches));
  row("peak browsers alive (target fleet ≤ 3)", (f) => String(f.peak));
  row("wait for a browser, p50 / p95 ms", (f) => `${n(f.waitP50)} / ${n(f.waitP95)}`);
  row(
    `first tab call, last ${SEQUENTIAL}, p50 / p95 ms`,
    (f) => `${n(f.firstCallP50)} / ${n(f.firstCallP95)}`,
  );
  row("wall time of the work, s", (f) => n(f.wallS, 1));
  row("browser-seconds until released (idle 60 s)", (f) => n(f.browserSeconds, 0));
  row("every browser released after the work, s", (f) => n(f.releasedS - f.wallS, 0));
  console.log(
    `  first tab call on a warm fleet browser: p50 ${n(fleet.firstCallP50)}, p95 ${n(fleet.firstCallP95)} ms (target < 300 ms)`,
  );
  if (!old) return;
  const oldTenMinutes = old.browserSeconds + old.launches * OLD_EXTRA_IDLE_S;
  console.log(
    `  the old side with the former 10 min idle (derived): ${n(oldTenMinutes, 0)} browser-seconds; one per conversation / fleet: ${(old.browserSeconds / fleet.browserSeconds).toFixed(1)}× at the same idle time, ${(oldTenMinutes / fleet.browserSeconds).toFixed(1)}× against the old 10 min idle (target ≥ 10×)`,
  );
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  buildWeb();
  const pages = createServer((req, res) => {
    const name = req.url === "/b" ? "Page B" : "Page A";
    res.writeHead(200, { "content-type": "text/html" });
    res.end(page(name));
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  try {
    const sides = (process.env.FLEET_BENCH_SIDES ?? "fleet,old").split(",");
    const fleet = await runSide({ label: "fleet (3×8)", vars: { BROWSER_MAX_SESSIONS: "3" } }, origin);
    const noSpare = sides.includes("nospare")
      ? await runSide(
          { label: "fleet, no spare", vars: { BROWSER_MAX_SESSIONS: "3", BROWSER_SPARE_CONTEXTS: "0" } },
          origin,
        )
      : null;
    const old = sides.includes("old")
      ? await runSide(
          {
            label: "one per conversation",
            vars: { BROWSER_MAX_SESSIONS: String(CONVERSATIONS + 10), BROWSER_CONTEXTS_PER_SESSION: "1" },
          },
          origin,
        )
      : null;
    print(fleet, old, noSpare);
    if (fleet.succeeded < CONVERSATIONS || fleet.peak > 3) process.exitCode = 1;
  } finally {
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  }
}

await main();
