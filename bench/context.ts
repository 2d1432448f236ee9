/**
 * The context bench: a long browsing run against the naive loop on the same run, side by side.
 * Pages from the shared article set are served locally; Cirrus runs in workerd (wrangler's dev
 * server, the local Chromium through the BROWSER binding) against the scripted model, which
 * reports as cached the exact prefix each request shares with the one before (OpenAI's shape).
 * The run opens and reads every page in a tab, fetches every third with web_fetch, reads the
 * first page's result back from the workspace, and answers; a second run hands the same work to
 * a sub-agent. The naive loop is the same run with clearing off (`context_clear_at_tokens: 0`)
 * and, as before this change, the date and time to the minute in the system prompt's second line,
 * stamped into its recorded requests at the minute each is sent when a model turn takes
 * TURN_SECONDS. Both are given the same reading tools (`allowed_tools`). Run: `node bench/context.ts` (CONTEXT_DATA names the article set's folder;
 * CONTEXT_DUMP=<folder> writes each run's requests there, to measure other settings offline).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { LoggedRequest } from "./context-measure.ts";
import { decodeBody } from "../durable-objects/engine/net/charset.ts";
import { buildWeb } from "../scripts/build-web.ts";
import { type RunResult, report, TURN_SECONDS } from "./context-report.ts";
import { type BenchStack, startBenchStack } from "./start-worker.ts";

const DATA = process.env.CONTEXT_DATA ?? join(import.meta.dirname, "../../shared/data/article-extraction");
const PAGES = 18;
/** The tools both loops are given: what a reading agent needs (the same for both). */
const TOOLS = ["open_tab", "get_tab_content", "close_tab", "list_tabs", "web_fetch", "opfs_read", "agent"];

type Turn = Record<string, unknown>;
const call = (id: string, name: string, args: Record<string, unknown>): Turn => ({
  tool_calls: [{ id, name, arguments: args }],
});

/** The browsing turns: each page opened and read in tab 1, every third fetched too, then the first read back. */
function browsingTurns(urls: string[], readBack: string): Turn[] {
  const turns: Turn[] = [];
  urls.forEach((url, i) => {
    turns.push(call(`call_open_${i}`, "open_tab", i === 0 ? { url } : { url, tab_id: 1 }));
    turns.push(call(`call_read_${i}`, "get_tab_content", { tab_id: 1 }));
    if (i % 3 === 2) turns.push(call(`call_fetch_${i}`, "web_fetch", { url }));
  });
  turns.push(call("call_back", "opfs_read", { path: readBack, mode: "text", limit: 5000 }));
  return turns;
}

async function putScript(stack: BenchStack, key: string, turns: Turn[]): Promise<void> {
  const res = await fetch(`${stack.llmUrl}/__scripts/${encodeURIComponent(key)}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns, cache: "openai" }),
  });
  if (!res.ok) throw new Error(await res.text());
}

interface RunEnd {
  type: string;
  usage?: { inputTokens: number; cachedInputTokens?: number }[];
}

/**
 * Sends a message and reads the run's events (SSE) to its end: a long run on a busy machine
 * outlasts the client's wait for the headers of a `stream: false` answer.
 */
async function runToEnd(stack: BenchStack, id: string, content: string): Promise<RunEnd> {
  const res = await stack.request(`/v1/conversations/${id}/messages`, {
    method: "POST",
    json: { content, stream: true },
  });
  const events = (await res.text())
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => JSON.parse(l.slice(5)) as RunEnd);
  return events.findLast((e) => e.type === "RUN_FINISHED" || e.type === "RUN_ERROR") ?? { type: "none" };
}

/** One run: a conversation (clearing on or off), scripted directly or through a sub-agent. */
async function run(
  stack: BenchStack,
  urls: string[],
  naive: boolean,
  viaSubAgent: boolean,
): Promise<RunResult> {
  const key = `bench-context-${naive ? "naive" : "cleared"}-${viaSubAgent ? "sub" : "run"}-${Date.now()}`;
  const created = await stack.request("/v1/conversations", {
    method: "POST",
    json: { model: key, allowed_tools: TOOLS, ...(naive ? { context_clear_at_tokens: 0 } : {}) },
  });
  const { id } = (await created.json()) as { id: string };
  const readBack = `.cirrus/results/${id}/call_read_0.txt`;
  const work = browsingTurns(urls, readBack);
  const turns = viaSubAgent
    ? [
        call("call_agent", "agent", { prompt: "Read every page and report.", description: "reader" }),
        ...work,
        { text: "REPORT: every page read; the first page's result was read back whole." },
        { text: "Done: the sub-agent read every page." },
      ]
    : [...work, { text: "Done: every page read; the first one read back whole." }];
  await putScript(stack, key, turns);
  const start = performance.now();
  const result = await runToEnd(stack, id, "Read these pages and tell me what the first one says.");
  if (result.type !== "RUN_FINISHED") throw new Error(`run ${key}: ${JSON.stringify(result)}`);
  const u = result.usage?.[0];
  const usage = { input_tokens: u?.inputTokens ?? 0, cached_input_tokens: u?.cachedInputTokens ?? 0 };
  const seconds = (performance.now() - start) / 1000;
  const log = await fetch(`${stack.llmUrl}/__scripts/${encodeURIComponent(key)}/requests`);
  const requests = ((await log.json()) as { requests: LoggedRequest[] }).requests;
  if (process.env.CONTEXT_DUMP)
    writeFileSync(`${process.env.CONTEXT_DUMP}/${key.replace(/-\d+$/, "")}.json`, JSON.stringify(requests));
  const saved = await stack.request(`/v1/files/${readBack}`);
  const file = saved.ok ? await saved.text() : null;
  await stack.request(`/v1/conversations/${id}`, { method: "DELETE" });
  return { requests, usage, readBackWhole: !naive && readBackIsWhole(requests, file), seconds };
}

const toolResult = (r: LoggedRequest, callId: string) =>
  (r.messages.find((m) => m.role === "tool" && (m as { tool_call_id?: string }).tool_call_id === callId)
    ?.content ?? null) as string | null;

const flat = (s: string) => s.replace(/\s+/g, "");

/**
 * Whether the first page's result was cleared, and read back from the workspace whole: the model
 * got the saved file in one read, and every field of the result it first saw is in it.
 */
function readBackIsWhole(requests: LoggedRequest[], file: string | null): boolean {
  const original = requests
    .map((r) => toolResult(r, "call_read_0"))
    .find((c) => c && !c.startsWith("[Cleared"));
  const back = requests.map((r) => toolResult(r, "call_back")).find((c) => c !== null);
  const cleared = requests.some((r) => toolResult(r, "call_read_0")?.startsWith("[Cleared"));
  if (!original || !back || !file || !cleared) return false;
  const read = JSON.parse(back) as { content?: string; next_offset?: number | null };
  if (read.next_offset !== null || flat(read.content ?? "") !== flat(file)) return false;
  const fields = Object.values(JSON.parse(original) as Record<string, unknown>).filter(
    (v): v is string => typeof v === "string",
  );
  return fields.every((v) => flat(file).includes(flat(v)));
}

async function main(): Promise<void> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  buildWeb();
  const files = readdirSync(join(DATA, "html"))
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .slice(0, PAGES);
  const server = createServer((req, res) => {
    const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!files[i]) return void res.writeHead(404).end();
    // Decoded by its own charset here (as the other page benches do), served as UTF-8.
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(decodeBody(gunzipSync(readFileSync(join(DATA, "html", files[i]))), null, true));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls = files.map((_, i) => `${base}/p/${i}.html`);
  // The four runs open 72 pages: on a busy machine that passes the free plan's 10 browser-minutes
  // a day, a limit this bench does not measure (its runs would read error messages instead of pages).
  const stack = await startBenchStack({
    SUB_AGENT_MAX_STEPS: "80",
    MAX_STEPS: "80",
    BROWSER_DAILY_MINUTES: "1440",
  });
  try {
    const probe = await stack.request("/v1/conversations", { method: "POST", json: { model: "bench" } });
    const defaults = (await probe.json()) as {
      context_clear_at_tokens: number;
      context_keep_results: number;
    };
    console.log(
      `\n## Context bench: ${PAGES} pages of the article set, real Chromium, scripted model (defaults: CONTEXT_CLEAR_AT_TOKENS ${defaults.context_clear_at_tokens}, CONTEXT_KEEP_RESULTS ${defaults.context_keep_results}; naive: clearing off, the date to the minute at the top, ${TURN_SECONDS} s a model turn)`,
    );
    report("one run", await run(stack, urls, true, false), await run(stack, urls, false, false));
    report(
      "the same work in a sub-agent",
      await run(stack, urls, true, true),
      await run(stack, urls, false, true),
    );
  } finally {
    await stack.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

await main();
