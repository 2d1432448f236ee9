/**
 * How fast a run cut off by a crash continues: starts Cirrus under `wrangler dev` (workerd) with
 * the scripted model, starts a run whose model call hangs, kills the whole local runtime
 * (SIGKILL to its process group), restarts it on the same persisted state and times how long
 * after the restart the run's next model turn arrives. Two cases: nothing touches the
 * conversation (the persisted watchdog alarm wakes it), and a client reconnects to its events.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedModel } from "../test/support/scripted-model.ts";
import { percentile } from "./start-worker.ts";

const ADMIN = "bench-admin-token";
const TRIES = 3;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is truthy; returns when it became so. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return Date.now();
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Runtime {
  proc: ChildProcess;
  url: string;
}

function startRuntime(port: number, persist: string, llmUrl: string): Runtime {
  const vars = {
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: `${llmUrl}/v1`,
    OPENAI_MODEL: "bench",
    ALLOW_PRIVATE_NETWORK: "true",
  };
  const args = ["dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persist];
  args.push("--log-level", "error", "--show-interactive-dev-session=false");
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const proc = spawn(join("node_modules", ".bin", "wrangler"), args, {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  });
  return { proc, url: `http://127.0.0.1:${port}` };
}

/** Kills wrangler and workerd at once, as a crash would. */
async function kill(rt: Runtime): Promise<void> {
  const exited = new Promise((r) => rt.proc.once("exit", r));
  process.kill(-rt.proc.pid!, "SIGKILL");
  await exited;
}

const ready = (rt: Runtime) =>
  until(async () => (await fetch(`${rt.url}/openapi.json`)).ok, 60_000, "wrangler dev to start");

async function api(rt: Runtime, path: string, json?: unknown): Promise<Response> {
  return fetch(`${rt.url}${path}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

// Streams still open to the runtime this bench kills on purpose end with a reset; nothing else may.
process.on("unhandledRejection", (err) => {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return;
  throw err;
});

async function main(): Promise<void> {
  const model = await startScriptedModel();
  const persist = mkdtempSync(join(tmpdir(), "cirrus-resume-"));
  const port = await freePort();
  let rt = startRuntime(port, persist, model.url);
  const requests = async (key: string) =>
    ((await (await fetch(`${model.url}/__scripts/${key}/requests`)).json()) as { requests: unknown[] })
      .requests.length;
  const results: Record<"alarm" | "client", { fromStart: number[]; fromReady: number[] }> = {
    alarm: { fromStart: [], fromReady: [] },
    client: { fromStart: [], fromReady: [] },
  };
  try {
    await ready(rt);
    for (let i = 0; i < TRIES * 2; i++) {
      const mode = i % 2 === 0 ? "alarm" : "client";
      const key = `resume-${i}-${Date.now()}`;
      await fetch(`${model.url}/__scripts/${key}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ turns: [{ text: "lost with the crash", hang: true }, { text: "resumed" }] }),
      });
      const conv = (await (await api(rt, "/v1/conversations", { model: key })).json()) as { id: string };
      // Closing the run's stream never stops the run.
      await api(rt, `/v1/conversations/${conv.id}/messages`, { content: "go" }).then((r) => r.body?.cancel());
      await until(async () => (await requests(key)) === 1, 20_000, "the first model turn");
      await kill(rt);
      await fetch(`${model.url}/__scripts/${key}/release`, { method: "POST" });
      const started = Date.now();
      rt = startRuntime(port, persist, model.url);
      const up = await ready(rt);
      if (mode === "client")
        void api(rt, `/v1/conversations/${conv.id}/events`).then((r) => r.body?.cancel());
      const resumed = await until(async () => (await requests(key)) >= 2, 60_000, "the run to continue");
      results[mode].fromStart.push(resumed - started);
      results[mode].fromReady.push(resumed - up);
    }
  } finally {
    await kill(rt).catch(() => {});
    await model.close();
    rmSync(persist, { recursive: true, force: true });
  }
  console.log(`\nresume after a crash (wrangler dev killed with SIGKILL mid-run, ${TRIES} tries each, p50)`);
  for (const [mode, r] of Object.entries(results)) {
    const label = mode === "alarm" ? "nothing touches the conversation" : "a client reconnects to /events";
    console.log(
      `  ${label}: run continues ${percentile(r.fromReady, 50)} ms after the runtime is up, ${percentile(r.fromStart, 50)} ms after the restart (all: ${r.fromStart.join(", ")} ms)`,
    );
  }
}

await main();
