/** Starts a real `wrangler dev` of this project on free ports, and stops it (whole process group). */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../..");
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const START_ATTEMPTS = 3;

/** A running `wrangler dev`. */
export interface WranglerDev {
  url: string;
  /** Everything it printed, for failure messages. */
  output: () => string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/**
 * Spawns `wrangler dev` with these vars and waits until it answers HTTP. A port that was free when
 * picked may be taken by another process before wrangler binds it (tests run side by side), so a
 * start that fails is tried again on new ports, at most START_ATTEMPTS times.
 */
export async function startWranglerDev(vars: Record<string, string>): Promise<WranglerDev> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(vars);
    } catch (err) {
      if (attempt >= START_ATTEMPTS) throw err;
    }
  }
}

async function startOnce(vars: Record<string, string>): Promise<WranglerDev> {
  const port = await freePort();
  let inspector = await freePort();
  while (inspector === port) inspector = await freePort();
  const persist = mkdtempSync(join(tmpdir(), "cirrus-e2e-"));
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
    "--persist-to",
    persist,
    "--show-interactive-dev-session=false",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  let output = "";
  child.stdout?.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (output += b.toString()));
  const dev: WranglerDev = {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      await stopGroup(child);
      rmSync(persist, { recursive: true, force: true });
    },
  };
  try {
    await waitReady(dev.url, child);
  } catch (err) {
    await dev.stop();
    throw new Error(`wrangler dev did not start: ${String(err)}\n${output.slice(-3000)}`);
  }
  return dev;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      // Our worker, not whatever else may hold a port that was free a moment ago.
      const res = await fetch(url);
      const body = (await res.json().catch(() => null)) as { name?: string } | null;
      if (body?.name === "cirrus") return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("timed out");
}

/** SIGTERM to the process group we started, SIGKILL after a grace period. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
