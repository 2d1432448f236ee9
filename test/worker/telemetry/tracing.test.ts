/**
 * Runs with tracing on (vitest projects `telemetry`: protobuf, content off; `telemetry-json`:
 * JSON, content captured), checked against the spans the local OTLP receiver decoded.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { ReceivedSpan } from "../../support/otlp-receiver";
import { createConversation, eventually, runMessage, script, uniqueKey } from "../helpers";

const vars = env as unknown as Record<string, string | undefined>;
const JSON_MODE = vars.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json";
const CAPTURE = vars.OTEL_CAPTURE_CONTENT === "true";
const control = (path: string, method = "GET") => fetch(`${inject("otlpControlUrl")}${path}`, { method });

async function spansOf(conversationId: string, atLeast: number): Promise<ReceivedSpan[]> {
  return eventually(async () => {
    const { spans } = (await (await control(`/spans?conversation_id=${conversationId}`)).json()) as {
      spans: ReceivedSpan[];
    };
    return spans.length >= atLeast ? spans : null;
  }, 10_000);
}

async function runOnce(id: string, content = "go") {
  const events = await runMessage(id, content);
  return { runId: String(events[0].data.runId), end: events.at(-1)!.data };
}

const one = (spans: ReceivedSpan[], name: string) => {
  const found = spans.filter((s) => s.name === name);
  expect(found, name).toHaveLength(1);
  return found[0];
};

describe(`tracing over OTLP/HTTP (${JSON_MODE ? "http/json" : "http/protobuf"})`, () => {
  it("sends one trace per run: invoke_agent, chat <model> per turn, execute_tool <name> per call, sub-agents under their call", async () => {
    const key = uniqueKey("traced");
    await script(key, [
      {
        tool_calls: [
          { id: "call_task", name: "create_task", arguments: { subject: "trace me" } },
          { id: "call_bad", name: "no_such_tool", arguments: {} },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 30 },
      },
      {
        tool_calls: [{ id: "call_sub", name: "agent", arguments: { prompt: "look it up", type: "general" } }],
      },
      { text: "the sub-agent's answer", usage: { prompt_tokens: 50, completion_tokens: 10 } },
      { text: "all done", usage: { prompt_tokens: 200, completion_tokens: 20 } },
    ]);
    const conv = await createConversation(key);
    const { runId, end } = await runOnce(conv);
    expect(end.type).toBe("RUN_FINISHED");

    const spans = await spansOf(conv, 8);
    expect(new Set(spans.map((s) => s.protocol))).toEqual(new Set([JSON_MODE ? "json" : "protobuf"]));
    expect(new Set(spans.map((s) => s.traceId))).toEqual(
      new Set([runId.replace(/^run_/, "").replaceAll("-", "")]),
    );
    expect(spans.every((s) => s.service === (JSON_MODE ? "cirrus-json" : "cirrus"))).toBe(true);

    const root = spans.find((s) => s.parentSpanId === null)!;
    expect(root).toMatchObject({ name: "invoke_agent", kind: 1, status: { code: 0 } });
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "cirrus",
      "gen_ai.request.model": key,
      "gen_ai.conversation.id": conv,
      "cirrus.run.id": runId,
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    const chats = spans.filter((s) => s.name === `chat ${key}`);
    expect(chats).toHaveLength(4);
    expect(chats.filter((c) => c.parentSpanId === root.spanId)).toHaveLength(3);
    expect(chats[0].kind).toBe(3); // CLIENT (OTLP numbering)
    const first = chats.find((c) => c.attributes["gen_ai.usage.input_tokens"] === 120)!;
    expect(first.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": key,
      "gen_ai.response.model": key,
      "gen_ai.usage.output_tokens": 30,
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.conversation.id": conv,
      "cirrus.run.id": runId,
    });

    const task = one(spans, "execute_tool create_task");
    expect(task.parentSpanId).toBe(root.spanId);
    expect(task.status.code).toBe(0);
    expect(task.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "create_task",
      "gen_ai.tool.call.id": "call_task",
    });
    const bad = one(spans, "execute_tool no_such_tool");
    expect(bad.status.code).toBe(2);
    expect(bad.attributes["error.type"]).toBe("unknown_tool");

    const agentCall = one(spans, "execute_tool agent");
    const sub = spans.find((s) => s.name === "invoke_agent" && s.parentSpanId === agentCall.spanId)!;
    expect(sub.attributes).toMatchObject({ "gen_ai.agent.name": "general", "gen_ai.agent.id": "call_sub" });
    const subChat = chats.find((c) => c.parentSpanId === sub.spanId)!;
    expect(subChat.attributes["gen_ai.usage.input_tokens"]).toBe(50);
    for (const s of spans) expect(s.startNs).toBeLessThanOrEqual(s.endNs);
    expect(root.startNs).toBeLessThanOrEqual(Math.min(...spans.map((s) => s.startNs)));

    // Content only when OTEL_CAPTURE_CONTENT=true; secrets never.
    if (CAPTURE) {
      expect(String(first.attributes["gen_ai.input.messages"])).toContain("go");
      expect(String(task.attributes["gen_ai.tool.call.arguments"])).toContain("trace me");
      expect(String(chats.at(-1)!.attributes["gen_ai.output.messages"])).toMatch(/all done|answer/);
    } else {
      for (const s of spans)
        for (const k of Object.keys(s.attributes)) expect(k).not.toMatch(/messages|arguments|result/);
    }
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain("sk-test");
    expect(everything).not.toContain("otel key");

    // OTEL_EXPORTER_OTLP_HEADERS reach the collector, URL-decoded.
    const { requests } = (await (await control("/requests")).json()) as {
      requests: { contentType: string; headers: Record<string, string> }[];
    };
    expect(requests.at(-1)!.headers["x-collector-key"]).toBe("otel key=1");
    expect(requests.at(-1)!.contentType).toBe(JSON_MODE ? "application/json" : "application/x-protobuf");

    // The next run is a trace of its own.
    await script(key, [{ text: "again" }]);
    const second = await runOnce(conv, "again");
    const all = await spansOf(conv, spans.length + 2);
    const traces = new Set(all.map((s) => s.traceId));
    expect(traces.size).toBe(2);
    expect(
      all
        .filter((s) => s.attributes["cirrus.run.id"] === second.runId)
        .every((s) => s.traceId !== root.traceId),
    ).toBe(true);
  });

  it("marks a failed run's span as an error with its code", async () => {
    const key = uniqueKey("traced-fail");
    await script(key, [{ error: { status: 400, message: "no such model" } }]);
    const conv = await createConversation(key);
    const { end } = await runOnce(conv);
    expect(end.type).toBe("RUN_ERROR");
    const spans = await spansOf(conv, 2);
    const root = spans.find((s) => s.parentSpanId === null)!;
    expect(root.status.code).toBe(2);
    expect(root.attributes["error.type"]).toBe(end.code);
    expect(spans.find((s) => s.name === `chat ${key}`)!.status.code).toBe(2);
  });

  it("names the model actually used: a failed chat span per model tried, the run span's fallback", async () => {
    const primary = uniqueKey("traced-primary");
    const fallback = uniqueKey("traced-fallback");
    await script(primary, [{ error: { status: 503 } }], true);
    await script(fallback, [{ text: "from the fallback" }]);
    const conv = await createConversation(primary, { fallback_models: [fallback] });
    const { end } = await runOnce(conv);
    expect(end).toMatchObject({ type: "RUN_FINISHED", result: "from the fallback" });
    const spans = await spansOf(conv, 3);
    expect(one(spans, `chat ${primary}`).status.code).toBe(2);
    const answered = one(spans, `chat ${fallback}`);
    expect(answered.status.code).toBe(0);
    expect(answered.attributes).toMatchObject({
      "gen_ai.request.model": fallback,
      "gen_ai.response.model": fallback,
    });
    const root = spans.find((s) => s.parentSpanId === null)!;
    expect(root.attributes).toMatchObject({
      "gen_ai.request.model": primary,
      "cirrus.fallback_model": fallback,
    });
  });

  it("never slows or breaks a run when the collector is down or hangs", async () => {
    const key = uniqueKey("traced-down");
    await script(
      key,
      [{ tool_calls: [{ name: "create_task", arguments: { subject: "x" } }] }, { text: "fine" }],
      true,
    );
    try {
      for (const mode of ["/down", "/hang"]) {
        await control(mode, "POST");
        const conv = await createConversation(key);
        const t0 = Date.now();
        const { end } = await runOnce(conv);
        expect(end, mode).toMatchObject({ type: "RUN_FINISHED", result: "fine" });
        expect(Date.now() - t0, mode).toBeLessThan(3_000);
      }
    } finally {
      await control("/up", "POST");
    }
    // Back up: the next run is traced again.
    const conv = await createConversation(key);
    await runOnce(conv);
    expect((await spansOf(conv, 4)).length).toBeGreaterThanOrEqual(4);
  });
});
