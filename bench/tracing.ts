/**
 * Tracing overhead (issue 17): the same conversations through two Workers side by side, one
 * without OTEL_EXPORTER_OTLP_ENDPOINT (tracing off) and one exporting to a local OTLP receiver
 * (tracing on, `http/protobuf`), interleaved so both see the same machine load. Target: under
 * 1 ms added per model turn at p50.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import type { OtlpExporter } from "../durable-objects/engine/telemetry/exporter";
import type { GenAiTracer } from "../durable-objects/engine/telemetry/gen-ai-tracer";
import { startOtlpReceiver } from "../test/support/otlp-receiver.ts";
import { type Ev, runConversation, turnTimes } from "./runtime.ts";
import { type BenchStack, ms, percentile, startBenchStack } from "./start-worker.ts";

const TURNS = 20;
const CONVERSATIONS = 15;
/** Turns of the in-process measurement of the tracer itself. */
const CPU_TURNS = 5_000;
const ROOT = join(fileURLToPath(import.meta.url), "../..");

interface Sample {
  /** Runtime share per turn from the events' timestamps (whole milliseconds in workerd). */
  runtime: number[];
  /** Per turn: between the arrivals of consecutive STEP_STARTED events at the client (sub-millisecond). */
  perTurn: number[];
}

async function sample(stack: BenchStack, key: string, into: Sample): Promise<void> {
  const r = await runConversation(stack, key, TURNS).catch((err: Error) => {
    throw new Error(`${key}: ${err.message}`, { cause: err });
  });
  if (!r.ok) throw new Error(`${key}: the run did not finish`);
  into.runtime.push(...turnTimes(r.events).runtime);
  into.perTurn.push(...arrivalGaps(r.events));
}

/** Client-side time from one model turn's start to the next. */
function arrivalGaps(events: Ev[]): number[] {
  const starts = events.filter((e) => e.type === "STEP_STARTED").map((e) => e.arrivedMs);
  return starts.slice(1).map((t, i) => t - starts[i]);
}

const line = (label: string, off: number[], on: number[]) => {
  const [off50, on50, off99, on99] = [
    percentile(off, 50),
    percentile(on, 50),
    percentile(off, 99),
    percentile(on, 99),
  ];
  return `${label}\n  off: p50 ${ms(off50)}  p99 ${ms(off99)}   on: p50 ${ms(on50)}  p99 ${ms(on99)}   added: p50 ${ms(on50 - off50)}  p99 ${ms(on99 - off99)}  (n=${on.length} each)`;
};

/** The tracer and exporter as the Worker bundles them, built for Node (the engine's imports have no extensions). */
async function loadTracer(): Promise<{ GenAiTracer: typeof GenAiTracer; OtlpExporter: typeof OtlpExporter }> {
  const dir = join(ROOT, "node_modules/.cache/cirrus-bench");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, "tracer.mjs");
  buildSync({
    stdin: {
      contents: `export { GenAiTracer } from "./durable-objects/engine/telemetry/gen-ai-tracer";
        export { OtlpExporter } from "./durable-objects/engine/telemetry/exporter";`,
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * The tracer's own CPU per model turn, in Node with sub-microsecond timers: a `chat` and an
 * `execute_tool` span built and queued, and every 128th turn the batch of 256 encoded as protobuf
 * (that happens synchronously, before the export's fetch), so the mean is the amortised cost.
 */
async function tracerCpu(collector: string): Promise<number[]> {
  const { GenAiTracer, OtlpExporter } = await loadTracer();
  const waits: Promise<unknown>[] = [];
  const exporter = new OtlpExporter(
    {
      url: `${collector}/v1/traces`,
      headers: {},
      protocol: "http/protobuf",
      captureContent: false,
      serviceName: "cirrus",
    },
    (p) => waits.push(p),
  );
  const ctx = {
    conversationId: crypto.randomUUID(),
    workspaceId: "bench",
    provider: "openai",
    captureContent: false,
  };
  const tracer = new GenAiTracer(exporter, ctx);
  const runId = crypto.randomUUID();
  const usage = { input_tokens: 1200, output_tokens: 40, cached_input_tokens: 0, total_tokens: 1240 };
  const samples: number[] = [];
  for (let i = 0; i < CPU_TURNS; i++) {
    const call = {
      id: `call_${i}`,
      type: "function" as const,
      function: { name: "create_task", arguments: "{}" },
    };
    const t0 = performance.now();
    const endChat = tracer.chat(runId, "bench", []);
    endChat({
      text: "",
      toolCalls: [call],
      usage,
      finishReason: "tool_calls",
      responseModel: "bench",
    } as never);
    tracer.tool(runId, call)({ kind: "result", content: "ok", isError: false });
    samples.push(performance.now() - t0);
  }
  await Promise.all(waits);
  return samples.slice(500); // the first turns warm the JIT
}

/** Prints per-turn overhead with tracing off and on, and the difference. */
export async function benchTracing(): Promise<void> {
  const receiver = await startOtlpReceiver();
  const stacks: BenchStack[] = [];
  const state = mkdtempSync(join(tmpdir(), "cirrus-bench-tracing-"));
  try {
    // Each Worker keeps its own local state: two sharing one SQLite folder lock each other out.
    const off = await startBenchStack({}, "wrangler.toml", join(state, "off"));
    stacks.push(off);
    const on = await startBenchStack(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      "wrangler.toml",
      join(state, "on"),
    );
    stacks.push(on);
    const offS: Sample = { runtime: [], perTurn: [] };
    const onS: Sample = { runtime: [], perTurn: [] };
    await sample(off, "trace-warm-off", { runtime: [], perTurn: [] });
    await sample(on, "trace-warm-on", { runtime: [], perTurn: [] });
    for (let i = 0; i < CONVERSATIONS; i++) {
      // Alternate which goes first so neither always runs on a warmer machine.
      const pair: [BenchStack, string, Sample][] = [
        [off, `trace-off-${i}`, offS],
        [on, `trace-on-${i}`, onS],
      ];
      if (i % 2) pair.reverse();
      for (const [stack, key, into] of pair) await sample(stack, key, into);
    }
    await new Promise((r) => setTimeout(r, 1_000)); // let the last batch arrive
    const res = await fetch(`${receiver.controlUrl}/spans`);
    const { spans } = (await res.json()) as { spans: { name: string }[] };
    const chats = spans.filter((s) => s.name.startsWith("chat ")).length;
    console.log("\n== Tracing overhead (workerd, zero-latency scripted model, OTLP http/protobuf) ==");
    console.log(line("runtime share per model turn (event timestamps):", offS.runtime, onS.runtime));
    console.log(
      line(
        "whole model turn incl. local model HTTP + tool (client arrival times):",
        offS.perTurn,
        onS.perTurn,
      ),
    );
    const cpu = await tracerCpu(receiver.url);
    const mean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    const us = (v: number) => `${(v * 1000).toFixed(1)} µs`;
    console.log(
      `tracer's own CPU per turn (Node, same code, chat + tool span, protobuf batches of 256): p50 ${us(percentile(cpu, 50))}  p99 ${us(percentile(cpu, 99))}  mean ${us(mean)}  (n=${cpu.length})`,
    );
    console.log(
      `spans received by the local collector: ${spans.length} (${chats} chat spans for ${(CONVERSATIONS + 1) * TURNS} traced turns); target: < 1 ms added at p50`,
    );
  } finally {
    for (const s of stacks) await s.stop().catch(() => {});
    await receiver.close();
    rmSync(state, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTracing();
