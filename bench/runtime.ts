/**
 * Runtime benchmarks (issue 2), inside workerd with a zero-latency scripted model:
 * overhead per model turn, time from POST to first event, and 50 concurrent conversations
 * of 20 turns each.
 */
import { SseReader } from "../test/support/sse.ts";
import { type BenchStack, ms, percentile, startBenchStack } from "./start-worker.ts";

const TURNS = 20;
const CONCURRENT = 50;

/** An event as the bench reads it: its type, its timestamp, and when the client received it. */
export interface Ev {
  type: string;
  timestamp?: number;
  /** performance.now() at arrival (sub-millisecond, unlike `timestamp`). */
  arrivedMs: number;
}

/** Reads an SSE response to its end, with the arrival time of the first event. */
async function readRun(res: Response, t0: number): Promise<{ events: Ev[]; firstEventMs: number }> {
  const sse = new SseReader<Omit<Ev, "arrivedMs">>(res.body!);
  const events: Ev[] = [];
  for (let m = await sse.next(); m; m = await sse.next())
    events.push({ ...m.data, arrivedMs: performance.now() });
  return { events, firstEventMs: events.length ? events[0].arrivedMs - t0 : Number.NaN };
}

/** A script of `turns` model turns: tool calls, then a final answer. */
const toolTurns = (turns: number) => [
  ...Array.from({ length: turns - 1 }, (_, i) => ({
    tool_calls: [{ name: "create_task", arguments: { subject: `step ${i}` } }],
  })),
  { text: "done" },
];

/** Runs one conversation of `turns` model turns over SSE; its events and timings. */
export async function runConversation(stack: BenchStack, key: string, turns: number) {
  await stack.script(key, toolTurns(turns));
  const conv = (await (
    await stack.request("/v1/conversations", { method: "POST", json: { model: key } })
  ).json()) as { id: string };
  const t0 = performance.now();
  const res = await stack.request(`/v1/conversations/${conv.id}/messages`, {
    method: "POST",
    json: { content: "go" },
  });
  const { events, firstEventMs } = await readRun(res, t0);
  return {
    events,
    firstEventMs,
    totalMs: performance.now() - t0,
    ok: events.at(-1)?.type === "RUN_FINISHED",
  };
}

/**
 * Per model turn, from the events' timestamps: the whole turn (turn start to next turn start)
 * and the runtime's share of it (the turn minus the model call, i.e. minus STEP_STARTED to the
 * last streamed model event of that step).
 */
export function turnTimes(events: Ev[]): { total: number[]; runtime: number[] } {
  const total: number[] = [];
  const runtime: number[] = [];
  let stepStart = -1;
  let modelEnd = -1;
  let prevStart = -1;
  let prevModel = 0;
  for (const e of events) {
    if (e.type === "STEP_STARTED") {
      if (prevStart >= 0) {
        total.push(e.timestamp! - prevStart);
        runtime.push(e.timestamp! - prevStart - prevModel);
      }
      stepStart = e.timestamp!;
      prevStart = stepStart;
      modelEnd = stepStart;
    } else if (e.type === "STEP_FINISHED") {
      prevModel = modelEnd - stepStart;
    } else if (stepStart >= 0 && e.type.startsWith("TOOL_CALL_") && e.type !== "TOOL_CALL_RESULT") {
      modelEnd = e.timestamp!;
    }
  }
  return { total, runtime };
}

export async function benchRuntime(): Promise<void> {
  const stack = await startBenchStack();
  try {
    await runConversation(stack, "bench-warmup", 3);
    const gaps: number[] = [];
    const runtimeShare: number[] = [];
    const firsts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await runConversation(stack, `bench-seq-${i}`, TURNS);
      const t = turnTimes(r.events);
      gaps.push(...t.total);
      runtimeShare.push(...t.runtime);
      firsts.push(r.firstEventMs);
    }
    console.log("\n== Runtime (workerd, zero-latency scripted model) ==");
    console.log(
      `runtime overhead per model turn (excl. the model call): p50 ${ms(percentile(runtimeShare, 50))}  p99 ${ms(percentile(runtimeShare, 99))}  (n=${runtimeShare.length}, target p50 < 5 ms)`,
    );
    console.log(
      `whole model turn incl. local model HTTP + tool: p50 ${ms(percentile(gaps, 50))}  p99 ${ms(percentile(gaps, 99))}`,
    );
    console.log(
      `POST /messages to first SSE event: p50 ${ms(percentile(firsts, 50))}  p99 ${ms(percentile(firsts, 99))}  (n=${firsts.length})`,
    );

    const t0 = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: CONCURRENT }, (_, i) => runConversation(stack, `bench-conc-${i}`, TURNS)),
    );
    const wall = performance.now() - t0;
    const ok = results.filter((r) => r.status === "fulfilled" && r.value.ok).length;
    const errors = CONCURRENT - ok;
    console.log(
      `${CONCURRENT} concurrent conversations x ${TURNS} turns: wall ${ms(wall)}, ${((CONCURRENT * TURNS) / (wall / 1000)).toFixed(0)} turns/s, errors: ${errors}`,
    );
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRuntime();
