/**
 * Many concurrent widget visitors against one publishable key (one popular site), inside workerd
 * on 127.0.0.1: CORS preflights from the site's origin, visitor sessions opened, and visitor
 * requests on their own conversations. Prints throughput and latency p50 / p99 of each phase.
 * Counts and time are bounded; rate limits are raised in a generated config so they do not
 * throttle the measurement (the limiter is still called on every request).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BenchStack, ms, percentile, startBenchStack } from "./start-worker.ts";

const ORIGIN = "https://popular-site.example";
/** Concurrent visitors, and requests each visitor sends. */
const VISITORS = Number(process.env.BENCH_WIDGET_VISITORS ?? 100);
const REQUESTS_PER_VISITOR = Number(process.env.BENCH_WIDGET_REQUESTS ?? 10);
/** Sessions opened at once. */
const OPENING_CLIENTS = 20;
/** Preflights and widget-config reads sent, by this many clients at once. */
const PREFLIGHTS = 1_000;
const PREFLIGHT_CLIENTS = 50;
/** A phase that takes longer than this is stopped and reported as cut short. */
const PHASE_LIMIT_MS = 120_000;
/** Limits raised so a bench of one key is measured, not throttled. */
const BENCH_LIMIT = 1_000_000;

/** wrangler.toml with absolute paths and raised rate limits, in a temporary file. */
function benchConfig(): string {
  const root = resolve(import.meta.dirname, "..");
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8")
    .replace(/^main = "(.+)"/m, (_m, p) => `main = "${join(root, p)}"`)
    .replace(/^directory = "(.+)"/m, (_m, p) => `directory = "${join(root, p)}"`)
    .replace(
      /simple = \{ limit = \d+, period = (\d+) \}/g,
      `simple = { limit = ${BENCH_LIMIT}, period = $1 }`,
    );
  const file = join(tmpdir(), `cirrus-widget-bench-${process.pid}.toml`);
  writeFileSync(file, toml);
  return file;
}

interface Phase {
  name: string;
  latencies: number[];
  wallMs: number;
  errors: number;
  cut: boolean;
}

/** Runs `total` calls of `one`, `concurrency` at a time, timing each. */
async function phase(
  name: string,
  total: number,
  concurrency: number,
  one: (i: number) => Promise<Response>,
  expected: number,
): Promise<Phase> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + PHASE_LIMIT_MS;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      const res = await one(i);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== expected) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { name, latencies, wallMs: performance.now() - started, errors, cut: latencies.length < total };
}

function report(p: Phase): void {
  const rate = (p.latencies.length / (p.wallMs / 1000)).toFixed(0);
  console.log(
    `${p.name}: ${p.latencies.length} requests in ${ms(p.wallMs)}, ${rate} req/s, p50 ${ms(percentile(p.latencies, 50))}  p99 ${ms(percentile(p.latencies, 99))}, errors ${p.errors}${p.cut ? " (cut short at the time limit)" : ""}`,
  );
}

async function publishableKey(stack: BenchStack): Promise<string> {
  const res = await stack.request("/v1/keys", {
    method: "POST",
    json: { name: "bench-site", type: "publishable", allowed_origins: [ORIGIN] },
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** Runs every phase against a running stack. */
export async function measureWidgetVisitors(stack: BenchStack): Promise<Phase[]> {
  const pk = await publishableKey(stack);
  const widget = (path: string, init: RequestInit = {}, visitor?: string) =>
    fetch(`${stack.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${pk}`,
        origin: ORIGIN,
        ...(visitor ? { "x-visitor-token": visitor } : {}),
      },
    });
  const preflight = () =>
    fetch(`${stack.url}/v1/widget/session`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    });
  // Warm-up: one of each.
  await (await preflight()).arrayBuffer();
  const sessions: { conversation_id: string; visitor_token: string }[] = [];
  const open = await phase(
    `${VISITORS} visitors opening a session, ${OPENING_CLIENTS} at once (POST /v1/widget/session)`,
    VISITORS,
    OPENING_CLIENTS,
    async () => {
      const res = await widget("/v1/widget/session", { method: "POST" });
      if (res.status === 201) sessions.push((await res.clone().json()) as never);
      return res;
    },
    201,
  );
  const pre = await phase(
    `${PREFLIGHTS} CORS preflights, ${PREFLIGHT_CLIENTS} at once`,
    PREFLIGHTS,
    PREFLIGHT_CLIENTS,
    preflight,
    204,
  );
  const config = await phase(
    `${PREFLIGHTS} widget config reads, ${PREFLIGHT_CLIENTS} at once (GET /v1/widget/config)`,
    PREFLIGHTS,
    PREFLIGHT_CLIENTS,
    (i) => widget("/v1/widget/config", {}, sessions[i % sessions.length]?.visitor_token),
    200,
  );
  const visits = await phase(
    `${sessions.length} visitors x ${REQUESTS_PER_VISITOR} requests at once (POST …/cancel)`,
    sessions.length * REQUESTS_PER_VISITOR,
    sessions.length,
    (i) => {
      const s = sessions[i % sessions.length];
      return widget(`/v1/conversations/${s.conversation_id}/cancel`, { method: "POST" }, s.visitor_token);
    },
    200,
  );
  return [open, pre, config, visits];
}

export async function benchWidgetVisitors(): Promise<void> {
  const config = benchConfig();
  const limits = {
    WIDGET_RATE_LIMIT_PER_KEY: String(BENCH_LIMIT),
    WIDGET_RATE_LIMIT_PER_VISITOR: String(BENCH_LIMIT),
  };
  const stack = await startBenchStack(limits, config);
  try {
    console.log("\n== Widget visitors (workerd, one publishable key, 127.0.0.1) ==");
    for (const p of await measureWidgetVisitors(stack)) report(p);
  } finally {
    await stack.stop();
    rmSync(config, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWidgetVisitors();
