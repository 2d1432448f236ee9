import OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel, type Turn } from "../../support/scripted-model.js";

let model: ScriptedModel;
let client: OpenAI;

beforeAll(async () => {
  model = await startScriptedModel();
  client = new OpenAI({ apiKey: "x", baseURL: `${model.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await model.close();
});

const user = (content: string): ChatCompletionMessageParam[] => [{ role: "user", content }];

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = JSON.stringify(body);
  return fetch(`${model.url}/__scripts/${path}`, init);
}
async function script(key: string, turns: Turn[], repeat = false): Promise<void> {
  const res = await control("PUT", encodeURIComponent(key), { turns, repeat });
  expect(res.status).toBe(200);
}
/** How many requests of a key a `hang` turn holds right now. */
async function held(key: string): Promise<number> {
  return ((await (await control("GET", `${encodeURIComponent(key)}/held`)).json()) as { held: number }).held;
}
async function requests(key: string): Promise<Record<string, unknown>[]> {
  const res = await control("GET", `${encodeURIComponent(key)}/requests`);
  const json = (await res.json()) as { requests: Record<string, unknown>[] };
  return json.requests;
}

interface Accumulated {
  text: string;
  contentChunks: number;
  finish: string | null;
  usage: ChatCompletionChunk["usage"];
  calls: { id: string; name: string; arguments: string; fragments: number }[];
  chunks: ChatCompletionChunk[];
}
/** Accumulate a stream the way an agent loop would: content by concatenation, tool calls by index. */
async function accumulate(
  stream: AsyncIterable<ChatCompletionChunk>,
  into?: Accumulated,
): Promise<Accumulated> {
  const acc: Accumulated = into ?? {
    text: "",
    contentChunks: 0,
    finish: null,
    usage: undefined,
    calls: [],
    chunks: [],
  };
  for await (const chunk of stream) {
    acc.chunks.push(chunk);
    if (chunk.usage) acc.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta.content) {
      acc.text += choice.delta.content;
      acc.contentChunks++;
    }
    for (const tc of choice.delta.tool_calls ?? []) {
      if (!acc.calls[tc.index]) acc.calls[tc.index] = { id: "", name: "", arguments: "", fragments: 0 };
      const call = acc.calls[tc.index];
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name += tc.function.name;
      if (tc.function?.arguments) {
        call.arguments += tc.function.arguments;
        call.fragments++;
      }
    }
    if (choice.finish_reason) acc.finish = choice.finish_reason;
  }
  return acc;
}

describe("scripted model server", () => {
  it("streams text in chunks that reassemble", async () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    await script("s-text", [{ text, chunks: 5 }, { text }]);
    const a = await accumulate(
      await client.chat.completions.create({ model: "s-text", messages: user("hi"), stream: true }),
    );
    expect(a.text).toBe(text);
    expect(a.contentChunks).toBe(5);
    expect(a.finish).toBe("stop");
    expect(a.chunks[0]?.object).toBe("chat.completion.chunk");
    expect(a.chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(new Set(a.chunks.map((c) => c.id)).size).toBe(1);
    expect(a.usage).toBeUndefined(); // no include_usage, no usage field
    const b = await accumulate(
      await client.chat.completions.create({ model: "s-text", messages: user("hi"), stream: true }),
    );
    expect(b.text).toBe(text);
    expect(b.contentChunks).toBe(Math.ceil(text.length / 8));
  });

  it("answers non-streaming requests with a chat.completion including usage", async () => {
    await script("s-nonstream", [
      { text: "hello there" },
      { text: "x", usage: { prompt_tokens: 100, completion_tokens: 7 } },
    ]);
    const messages = user("12345678"); // 8 chars -> 2 prompt tokens
    const r = await client.chat.completions.create({ model: "s-nonstream", messages });
    expect(r.object).toBe("chat.completion");
    expect(r.model).toBe("s-nonstream");
    expect(r.choices[0]?.message).toMatchObject({ role: "assistant", content: "hello there" });
    expect(r.choices[0]?.finish_reason).toBe("stop");
    expect(r.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    const r2 = await client.chat.completions.create({ model: "s-nonstream", messages });
    expect(r2.usage).toEqual({ prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 });
  });

  it("sends the final usage chunk when stream_options.include_usage is set", async () => {
    await script("s-usage", [{ text: "abcdefghij" }]);
    const a = await accumulate(
      await client.chat.completions.create({
        model: "s-usage",
        messages: [{ role: "system", content: "sys" }, ...user("hello")], // 8 chars -> 2
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const last = a.chunks[a.chunks.length - 1];
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(a.chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(a.text).toBe("abcdefghij");
  });

  it("streams tool calls with arguments split across chunks, reassembled by index", async () => {
    const weather = { city: "Paris", units: "metric", days: [1, 2, 3] };
    await script("s-tools", [
      {
        text: "Let me check.",
        tool_calls: [
          { id: "call_weather", name: "get_weather", arguments: weather },
          { name: "search", arguments: '{"q":"eiffel tower height"}' },
        ],
      },
    ]);
    const a = await accumulate(
      await client.chat.completions.create({
        model: "s-tools",
        messages: user("weather?"),
        stream: true,
        tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      }),
    );
    expect(a.text).toBe("Let me check.");
    expect(a.finish).toBe("tool_calls");
    expect(a.calls).toHaveLength(2);
    expect(a.calls[0]).toMatchObject({ id: "call_weather", name: "get_weather" });
    expect(JSON.parse(a.calls[0]?.arguments ?? "")).toEqual(weather);
    expect(a.calls[0]?.fragments).toBeGreaterThan(2);
    expect(a.calls[1]?.id).toMatch(/^call_/);
    expect(a.calls[1]?.name).toBe("search");
    expect(JSON.parse(a.calls[1]?.arguments ?? "")).toEqual({ q: "eiffel tower height" });
    // first delta for a call carries id/type/name with empty arguments; later ones only index + fragment
    const deltas = a.chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).filter((t) => t.index === 0);
    expect(deltas[0]).toEqual({
      index: 0,
      id: "call_weather",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    for (const d of deltas.slice(1)) expect(Object.keys(d).sort()).toEqual(["function", "index"]);
  });

  it("returns tool calls in non-streaming mode", async () => {
    await script("s-tools-ns", [{ tool_calls: [{ id: "call_1", name: "f", arguments: { a: 1 } }] }]);
    const r = await client.chat.completions.create({ model: "s-tools-ns", messages: user("go") });
    expect(r.choices[0]?.finish_reason).toBe("tool_calls");
    expect(r.choices[0]?.message.content).toBeNull();
    expect(r.choices[0]?.message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
    ]);
  });

  it("passes malformed tool-call arguments through verbatim", async () => {
    const turn: Turn = { malformed_tool_call: { name: "broken", arguments: '{"a":' } };
    await script("s-malformed", [turn, turn]);
    const a = await accumulate(
      await client.chat.completions.create({ model: "s-malformed", messages: user("x"), stream: true }),
    );
    expect(a.calls[0]?.name).toBe("broken");
    expect(a.calls[0]?.arguments).toBe('{"a":');
    expect(() => JSON.parse(a.calls[0]?.arguments ?? "")).toThrow();
    const r = await client.chat.completions.create({ model: "s-malformed", messages: user("x") });
    const call = r.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" ? call.function.arguments : undefined).toBe('{"a":');
  });

  it("answers error turns with the status, OpenAI error JSON and Retry-After", async () => {
    await script("s-error", [
      { error: { status: 429, retry_after: 7, message: "slow down" } },
      { error: { status: 503 } },
    ]);
    const e1: unknown = await client.chat.completions
      .create({ model: "s-error", messages: user("x") })
      .catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(OpenAI.RateLimitError);
    const rl = e1 as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rl.status).toBe(429);
    expect(rl.headers.get("retry-after")).toBe("7");
    expect(rl.message).toContain("slow down");
    expect(rl.code).toBe("rate_limit_exceeded");
    const e2: unknown = await client.chat.completions
      .create({ model: "s-error", messages: user("x"), stream: true })
      .catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(OpenAI.InternalServerError);
    expect((e2 as InstanceType<typeof OpenAI.InternalServerError>).status).toBe(503);
  });

  it("drops the connection for drop turns", async () => {
    await script("s-drop", [{ drop: true }, { text: "after" }]);
    const e: unknown = await client.chat.completions
      .create({ model: "s-drop", messages: user("x") })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OpenAI.APIConnectionError);
    const r = await client.chat.completions.create({ model: "s-drop", messages: user("x") });
    expect(r.choices[0]?.message.content).toBe("after");
  });

  it("breaks a stream after N content chunks", async () => {
    await script("s-break", [{ stream_error_after_chunks: 2, text: "aaaabbbbccccdddd", chunks: 4 }]);
    const acc: Accumulated = {
      text: "",
      contentChunks: 0,
      finish: null,
      usage: undefined,
      calls: [],
      chunks: [],
    };
    const stream = await client.chat.completions.create({
      model: "s-break",
      messages: user("x"),
      stream: true,
    });
    await expect(accumulate(stream, acc)).rejects.toThrow();
    expect(acc.text).toBe("aaaabbbb");
    expect(acc.finish).toBeNull();
  });

  it("holds hang turns until released", async () => {
    await script("s-hang", [{ hang: true, text: "released!" }, { text: "second" }]);
    let settled = false;
    const pending = client.chat.completions.create({ model: "s-hang", messages: user("x") }).finally(() => {
      settled = true;
    });
    // Held: the server says so, and the client has no answer while it is.
    await expect.poll(() => held("s-hang")).toBe(1);
    expect(settled).toBe(false);
    const rel = await control("POST", "s-hang/release");
    expect(await rel.json()).toEqual({ released: 1 });
    expect((await pending).choices[0]?.message.content).toBe("released!");
  });

  it("releases a hang when the client aborts, and honours delay_ms", async () => {
    await script("s-abort", [
      { hang: true, text: "never" },
      { delay_ms: 120, text: "late" },
    ]);
    const ac = new AbortController();
    const pending = client.chat.completions.create(
      { model: "s-abort", messages: user("x") },
      { signal: ac.signal },
    );
    await expect.poll(() => held("s-abort")).toBe(1);
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    // The server lets go of the held request once the client is gone: nothing is left to release.
    await expect.poll(() => held("s-abort")).toBe(0);
    expect(await (await control("POST", "s-abort/release")).json()).toEqual({ released: 0 });
    const t0 = Date.now();
    const r = await client.chat.completions.create({ model: "s-abort", messages: user("x") });
    expect(r.choices[0]?.message.content).toBe("late");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
  });

  it("cycles repeating scripts and appends turns", async () => {
    await script("s-repeat", [{ text: "one" }, { text: "two" }], true);
    const got: (string | null | undefined)[] = [];
    for (let i = 0; i < 5; i++)
      got.push(
        (await client.chat.completions.create({ model: "s-repeat", messages: user("x") })).choices[0]?.message
          .content,
      );
    expect(got).toEqual(["one", "two", "one", "two", "one"]);

    await script("s-append", [{ text: "first" }]);
    expect((await control("POST", "s-append/append", { turns: [{ text: "second" }] })).status).toBe(200);
    const a = await client.chat.completions.create({ model: "s-append", messages: user("x") });
    const b = await client.chat.completions.create({ model: "s-append", messages: user("x") });
    expect([a.choices[0]?.message.content, b.choices[0]?.message.content]).toEqual(["first", "second"]);
  });

  it("returns a 400 OpenAI error when the script is missing or exhausted", async () => {
    const e: unknown = await client.chat.completions
      .create({ model: "s-none", messages: user("x") })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect((e as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message: "no scripted turn left for model s-none",
      type: "invalid_request_error",
      code: null,
      param: null,
    });
    await script("s-once", [{ text: "only" }]);
    await client.chat.completions.create({ model: "s-once", messages: user("x") });
    await expect(
      client.chat.completions.create({ model: "s-once", messages: user("x") }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it("records every request body in order, including errored ones, and deletes scripts", async () => {
    await script("s-log", [{ text: "a" }, { error: { status: 500 } }]);
    await client.chat.completions.create({ model: "s-log", messages: user("first"), temperature: 0.5 });
    await client.chat.completions
      .create({ model: "s-log", messages: user("second"), stream: true })
      .catch(() => undefined);
    await client.chat.completions.create({ model: "s-log", messages: user("third") }).catch(() => undefined);
    const log = await requests("s-log");
    expect(log.map((r) => (r.messages as { content: string }[])[0]?.content)).toEqual([
      "first",
      "second",
      "third",
    ]);
    expect(log[0]).toMatchObject({ model: "s-log", temperature: 0.5 });
    expect(log[1]).toMatchObject({ stream: true });
    expect((await control("DELETE", "s-log")).status).toBe(200);
    expect(await requests("s-log")).toEqual([]);
  });

  it("rejects malformed scripts", async () => {
    const res = await control("PUT", "s-bad", { turns: [{ txt: "typo" }] });
    expect(res.status).toBe(400);
  });

  it("has built-in echo and bench keys, and lists models", async () => {
    const r = await client.chat.completions.create({
      model: "echo",
      messages: [
        ...user("earlier"),
        { role: "assistant", content: "ok" },
        { role: "user", content: [{ type: "text", text: "ping" }] },
      ],
    });
    expect(r.choices[0]?.message.content).toBe("echo: ping");
    const s = await accumulate(
      await client.chat.completions.create({ model: "echo", messages: user("streamed echo"), stream: true }),
    );
    expect(s.text).toBe("echo: streamed echo");
    const b = await client.chat.completions.create({ model: "bench-42", messages: user("x") });
    expect(b.choices[0]?.message.content).toBe("ok");
    await script("s-listed", [{ text: "x" }]);
    const ids = (await client.models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(["echo", "bench", "s-listed"]));
  });

  it("close() tears down open and held connections promptly", async () => {
    const other = await startScriptedModel();
    const c = new OpenAI({ apiKey: "x", baseURL: `${other.url}/v1`, maxRetries: 0 });
    await fetch(`${other.url}/__scripts/h`, {
      method: "PUT",
      body: JSON.stringify({ turns: [{ hang: true, text: "x" }] }),
    });
    const pending = c.chat.completions.create({ model: "h", messages: user("x") }).catch((e: unknown) => e);
    await expect
      .poll(
        async () => ((await (await fetch(`${other.url}/__scripts/h/held`)).json()) as { held: number }).held,
      )
      .toBe(1);
    const t0 = Date.now();
    await other.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });
});

describe("scripted model json turns", () => {
  it("answers a response_format json_schema request with the turn's value and refuses a plain one", async () => {
    await script("json-turn", [{ json: { grades: [] } }, { json: { grades: [] } }]);
    const plain = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "json-turn", messages: user("grade") }),
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { error: { message: string } }).error.message).toContain(
      "response_format",
    );
    const done = await client.chat.completions.create({
      model: "json-turn",
      messages: user("grade"),
      response_format: { type: "json_schema", json_schema: { name: "grades", schema: { type: "object" } } },
    });
    expect(JSON.parse(done.choices[0].message.content ?? "")).toEqual({ grades: [] });
  });
});
