/**
 * How fast a run cut off by a crash continues. The Worker is built once (`wrangler deploy
 * --dry-run`) and served by Miniflare (workerd) with wrangler.toml's bindings (Durable Objects on
 * SQLite, R2, rate limits, assets, browser; not `ai`, which is remote-only and unused with a model
 * key) persisted to a temporary directory. A run streams a long, slow answer from the scripted
 * model; mid-stream workerd gets SIGKILL, a new Miniflare starts on the same directory, and the
 * bench times, from the restart: the runtime answering, the first event the resumed run adds to
 * the conversation's SSE stream, and the run finishing. Two cases: a client reconnects to
 * `/events` (the object wakes on that request and resumes the run at once), and nothing touches
 * the conversation (the persisted watchdog alarm wakes it, at most RUN_WATCHDOG_MS after the last
 * checkpoint before the crash). `wrangler dev` is not what is restarted: its own restart
 * re-bundles the Worker (16–20 s on a loaded 2-core machine), a cost of the dev tool, not of the
 * runtime. Linux only (workerd's pid is read from /proc).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

type V4Options = Parameters<typeof convertV4MiniflareOptions>[0];

import { startScriptedModel } from "../test/support/scripted-model.ts";
import { SseReader } from "../test/support/sse.ts";
import { percentile } from "./start-worker.ts";

const ADMIN = "bench-admin-token";
const TRIES = Number(process.env.BENCH_RESUME_TRIES ?? 5);
/** The first answer: this many chunks, one every CHUNK_MS (about 10 s); the crash comes after KILL_AFTER. */
const CHUNKS = 400;
const CHUNK_MS = 25;
const KILL_AFTER = 20;
const ROOT = resolve(import.meta.dirname, "..");

type Mode = "client" | "alarm";
interface Sample {
  ready: number;
  resumed: number;
  finished: number;
}

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Builds the Worker as a deploy would, once; returns the output directory. */
function buildWorker(): string {
  // The assets binding needs web/dist, which `npm run build:web` makes.
  if (!existsSync(join(ROOT, "web", "dist"))) {
    const web = spawnSync(process.execPath, [join(ROOT, "scripts", "build-web.ts")], { stdio: "inherit" });
    if (web.status !== 0) throw new Error("npm run build:web failed");
  }
  const out = mkdtempSync(join(tmpdir(), "cirrus-resume-dist-"));
  const built = spawnSync(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", out],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  if (built.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${built.stderr}`);
  return out;
}

/** Miniflare options: wrangler.toml's bindings on the built bundle, persisted to `persist`. */
function runtimeOptions(dist: string, persist: string, port: number, llmUrl: string): V4Options {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml"));
  const { ai: _remoteOnly, modulesRules: _bundled, ...bindings } = workerOptions;
  // The entry module comes first; the rest are the wasm modules the bundle imports.
  const wasm = readdirSync(dist).filter((f) => f.endsWith("-wasm") || f.endsWith(".wasm"));
  const modules = [
    { type: "ESModule", path: join(dist, "index.js") },
    ...wasm.map((f) => ({ type: "CompiledWasm", path: join(dist, f) })),
  ];
  const worker = {
    ...bindings,
    name: "cirrus",
    rootPath: ROOT,
    modulesRoot: dist,
    modules,
    bindings: {
      ...(workerOptions.bindings as Record<string, unknown>),
      ADMIN_TOKEN: ADMIN,
      OPENAI_API_KEY: "sk-bench",
      OPENAI_BASE_URL: `${llmUrl}/v1`,
      OPENAI_MODEL: "bench",
      ALLOW_PRIVATE_NETWORK: "true",
    },
  };
  return { host: "127.0.0.1", port, resourcePersistencePath: persist, workers: [worker] } as V4Options;
}

/** One workerd started by one Miniflare (this process); `pid` is workerd's own. */
interface Runtime {
  mf: Miniflare;
  pid: number;
  url: string;
}

/** workerd processes that are children of this process (Linux /proc). */
function workerdChildren(): Set<number> {
  const found = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid …"; comm may hold spaces, so read past its closing parenthesis.
      const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === process.pid && stat.includes("(workerd)")) found.add(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return found;
}

/** Starts Miniflare (and so workerd) on the options; resolves once it answers. */
async function startRuntime(options: V4Options): Promise<Runtime> {
  const before = workerdChildren();
  const mf = new Miniflare(convertV4MiniflareOptions(options));
  const url = (await mf.ready).href.replace(/\/$/, "");
  const pid = [...workerdChildren()].find((p) => !before.has(p));
  if (pid === undefined) throw new Error("could not find the workerd process Miniflare started");
  return { mf, pid, url };
}

/**
 * Kills workerd with SIGKILL, as a crash would (nothing in it shuts down); then lets its Miniflare
 * go at once, so that Miniflare does not restart the crashed workerd itself.
 */
async function kill(rt: Runtime): Promise<void> {
  process.kill(rt.pid, "SIGKILL");
  await rt.mf.dispose();
}

function api(rt: Runtime, path: string, json?: unknown): Promise<Response> {
  return fetch(`${rt.url}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

/** One event of the SSE stream, with when it arrived. */
interface Seen {
  seq: number;
  type: string;
  at: number;
}

/** Reads `/events?after=` and calls `on` per event until it returns true; resolves then (or on EOF). */
async function watch(rt: Runtime, convId: string, after: number, on: (e: Seen) => boolean): Promise<void> {
  const sse = new SseReader((await api(rt, `/v1/conversations/${convId}/events?after=${after}`)).body!);
  try {
    for (let m = await sse.next(); m; m = await sse.next()) {
      if (m.id !== null && on({ seq: m.id, type: m.data.type, at: Date.now() })) return;
    }
  } finally {
    await sse.close();
  }
}

// Streams still open to the runtime this bench kills on purpose end with a reset; nothing else may.
process.on("unhandledRejection", (err) => {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return;
  throw err;
});

/** One crash and restart; returns the times from the restart. */
async function once(
  rt: Runtime,
  options: V4Options,
  llmUrl: string,
  mode: Mode,
  i: number,
): Promise<[Runtime, Sample]> {
  const key = `resume-${mode}-${i}-${Date.now()}`;
  const long = Array.from({ length: CHUNKS }, (_, n) => `word${n}`).join(" ");
  const turns = [
    { text: long, chunks: CHUNKS, chunk_delay_ms: CHUNK_MS },
    { text: "resumed after the restart", chunks: 5 },
  ];
  await fetch(`${llmUrl}/__scripts/${key}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns }),
  });
  const conv = (await (await api(rt, "/v1/conversations", { model: key })).json()) as { id: string };
  // Closing the run's stream never stops the run.
  await api(rt, `/v1/conversations/${conv.id}/messages`, { content: "go" }).then((r) => r.body?.cancel());
  let lastSeq = 0;
  let content = 0;
  await watch(rt, conv.id, 0, (e) => {
    lastSeq = e.seq;
    if (e.type === "TEXT_MESSAGE_CONTENT") content++;
    return content >= KILL_AFTER;
  });
  await kill(rt);
  const restarted = Date.now();
  const next = await startRuntime(options);
  const ready = Date.now() - restarted;
  const requests = async () =>
    ((await (await fetch(`${llmUrl}/__scripts/${key}/requests`)).json()) as { requests: unknown[] }).requests
      .length;
  let resumed = 0;
  if (mode === "alarm") {
    // Nothing may touch the conversation until the run is back: the model's second call is the sign.
    while ((await requests()) < 2) {
      if (Date.now() - restarted > 60_000) throw new Error("the run did not continue within 60 s");
      await sleep(10);
    }
    resumed = Date.now() - restarted;
  }
  let finished = 0;
  await watch(next, conv.id, lastSeq, (e) => {
    if (!resumed) resumed = e.at - restarted;
    if (e.type !== "RUN_FINISHED" && e.type !== "RUN_ERROR") return false;
    if (e.type === "RUN_ERROR") throw new Error(`the resumed run failed (${conv.id})`);
    finished = e.at - restarted;
    return true;
  });
  return [next, { ready, resumed, finished }];
}

async function main(): Promise<void> {
  const built = Date.now();
  const dist = buildWorker();
  const buildMs = Date.now() - built;
  const model = await startScriptedModel();
  const persist = mkdtempSync(join(tmpdir(), "cirrus-resume-state-"));
  const options = runtimeOptions(dist, persist, await freePort(), model.url);
  const samples: Record<Mode, Sample[]> = { client: [], alarm: [] };
  let rt: Runtime | null = null;
  try {
    rt = await startRuntime(options);
    for (let i = 0; i < TRIES * 2; i++) {
      const mode: Mode = i % 2 === 0 ? "client" : "alarm";
      const [next, sample] = await once(rt, options, model.url, mode, i);
      rt = next;
      samples[mode].push(sample);
    }
  } finally {
    await rt?.mf.dispose().catch(() => {});
    await model.close();
    rmSync(persist, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
  const p50 = (list: Sample[], k: keyof Sample) =>
    `${percentile(
      list.map((s) => s[k]),
      50,
    )} ms`;
  const all = (list: Sample[], k: keyof Sample) => list.map((s) => s[k]).join(", ");
  console.log(
    `\nresume after a crash (Miniflare/workerd SIGKILLed mid-stream, restarted on the same state; ${TRIES} tries per case, p50; Worker built once in ${buildMs} ms)`,
  );
  const every = [...samples.client, ...samples.alarm];
  console.log(`  restart -> runtime answers: ${p50(every, "ready")} (all: ${all(every, "ready")} ms)`);
  for (const mode of ["client", "alarm"] as const) {
    const s = samples[mode];
    const label =
      mode === "client"
        ? "a client reconnects to /events: restart -> first resumed event"
        : "nothing touches the conversation (watchdog alarm): restart -> model called again";
    console.log(
      `  ${label} ${p50(s, "resumed")} (all: ${all(s, "resumed")} ms); restart -> RUN_FINISHED ${p50(s, "finished")} (all: ${all(s, "finished")} ms)`,
    );
  }
}

await main();
