/** Starts Cirrus in workerd (wrangler's dev server) against the scripted model, for benchmarks. */
import { unstable_dev, unstable_startWorker } from "wrangler";
import { startScriptedModel } from "../test/support/scripted-model.ts";

export const BENCH_ADMIN = "bench-admin-token";

/** A running Cirrus and its scripted model. */
export interface BenchStack {
  url: string;
  llmUrl: string;
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  script(key: string, turns: unknown[], repeat?: boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the scripted model and the Worker (config `wrangler.toml` unless given); stop() ends both.
 * Two stacks running at once need their own `persistTo` folders (one SQLite state each).
 */
export async function startBenchStack(
  extraVars: Record<string, string> = {},
  config = "wrangler.toml",
  persistTo?: string,
): Promise<BenchStack> {
  const model = await startScriptedModel();
  const worker = await unstable_dev("worker/index.ts", {
    config,
    ip: "127.0.0.1",
    port: 0,
    logLevel: "error",
    vars: {
      ADMIN_TOKEN: BENCH_ADMIN,
      OPENAI_API_KEY: "sk-bench",
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_MODEL: "bench",
      ALLOW_PRIVATE_NETWORK: "true",
      ...extraVars,
    },
    local: true,
    ...(persistTo ? { persistTo } : {}),
    experimental: { disableExperimentalWarning: true, forceLocal: true, watch: false },
  });
  const url = `http://127.0.0.1:${worker.port}`;
  return {
    url,
    llmUrl: model.url,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${BENCH_ADMIN}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(`${url}${path}`, { ...init, headers, body });
    },
    async script(key, turns, repeat = false) {
      const res = await fetch(`${model.url}/__scripts/${key}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ turns, repeat }),
      });
      if (!res.ok) throw new Error(await res.text());
    },
    async stop() {
      await worker.stop();
      await model.close();
    },
  };
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Formats milliseconds. */
export const ms = (v: number) => `${v.toFixed(2)} ms`;

/**
 * Cirrus in workerd with no model: the admin token and private addresses allowed, for benches
 * that call the tool routes directly against a local page server.
 */
export function startToolWorker(token: string) {
  const text = (value: string) => ({ type: "plain_text" as const, value });
  return unstable_startWorker({
    config: "wrangler.toml",
    bindings: { ADMIN_TOKEN: text(token), ALLOW_PRIVATE_NETWORK: text("true"), OPENAI_API_KEY: text("") },
    dev: { server: { port: 0 }, inspector: false, logLevel: "error", remote: false },
  });
}

/** An admin API call to a bench's worker: GET without a body, else POST (or `method`). */
export type BenchCall = (path: string, body?: unknown, method?: string) => Promise<Record<string, unknown>>;

/** Admin API calls to a worker started by a bench; each throws on a status of 300 or more. */
export function benchCaller(
  worker: Pick<Awaited<ReturnType<typeof unstable_startWorker>>, "fetch">,
  token = BENCH_ADMIN,
): BenchCall {
  return async (path, body, method = body === undefined ? "GET" : "POST") => {
    const res = await worker.fetch(`http://bench.local${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}
