import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  getConversation,
  modelRequests,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

const send = async (id: string, content: string) =>
  readSse(
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content } }),
    untilRunEnd,
    20_000,
  );

describe("model endpoint failures", () => {
  it("retries a 429 after the Retry-After it asked for, then a 500 and a dropped connection", async () => {
    const key = uniqueKey("retry");
    await script(key, [
      { error: { status: 429, retry_after: 1 } },
      { error: { status: 500 } },
      { drop: true },
      { text: "finally" },
    ]);
    const id = await createConversation(key);
    const started = Date.now();
    const events = await send(id, "hello");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "finally" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // the 429's Retry-After: 1 was honoured
    expect(await modelRequests(key)).toHaveLength(4);
  });

  it("restarts a stream that broke mid-way and tells the client", async () => {
    const key = uniqueKey("broken");
    await script(key, [
      { text: "partial partial partial", stream_error_after_chunks: 2 },
      { text: "complete answer" },
    ]);
    const id = await createConversation(key);
    const events = await send(id, "hello");
    expect(events.some((e) => e.data.type === "CUSTOM" && e.data.name === "notice")).toBe(true);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "complete answer" });
    const starts = events.filter((e) => e.data.type === "TEXT_MESSAGE_START").length;
    const ends = events.filter((e) => e.data.type === "TEXT_MESSAGE_END").length;
    expect(starts).toBe(ends);
  });

  it("fails fast and says which variable to set when the endpoint refuses the key", async () => {
    const key = uniqueKey("badkey");
    await script(key, [{ error: { status: 401, message: "Incorrect API key provided" } }]);
    const id = await createConversation(key);
    const events = await send(id, "hello");
    const last = events.at(-1)!.data as { type: string; code: string; message: string };
    expect(last).toMatchObject({ type: "RUN_ERROR", code: "model_auth_failed" });
    expect(last.message).toContain("OPENAI_API_KEY");
    expect(await modelRequests(key)).toHaveLength(1);
  });

  it("ends the run with RUN_ERROR when the endpoint refuses the request for good", async () => {
    const key = uniqueKey("fatal");
    await script(key, [{ error: { status: 400, message: "bad model" } }]);
    const id = await createConversation(key);
    const events = await send(id, "hello");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "model_error" });
    expect(await modelRequests(key)).toHaveLength(1);
    expect((await getConversation(id)).status).toBe("idle");
  });

  it("gives up on a 429 storm after the bounded number of attempts", async () => {
    const key = uniqueKey("storm");
    await script(key, [{ error: { status: 429, retry_after: 0.01 } }], true);
    const id = await createConversation(key);
    const events = await send(id, "hello");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "model_rate_limited" });
    expect(await modelRequests(key)).toHaveLength(5);
  });
});

describe("tool-call guards", () => {
  it("turns malformed arguments, unknown tools and invalid arguments into errors the model reads", async () => {
    const key = uniqueKey("badargs");
    await script(key, [
      { malformed_tool_call: { name: "create_task", arguments: '{"subject":' } },
      {
        tool_calls: [
          { name: "no_such_tool", arguments: {} },
          { name: "create_task", arguments: { subject: 5 } },
        ],
      },
      { text: "recovered" },
    ]);
    const id = await createConversation(key);
    const events = await send(id, "go");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "recovered" });
    const results = events
      .filter((e) => e.data.type === "TOOL_CALL_RESULT")
      .map((e) => JSON.parse(e.data.content as string));
    expect(results.map((r) => r.error.code).sort()).toEqual([
      "invalid_arguments",
      "invalid_arguments",
      "unknown_tool",
    ]);
    const seen = (await modelRequests(key))[1].messages.filter((m) => m.role === "tool");
    expect(seen[0].content).toContain("not valid JSON");
  });

  it("runs several tool calls of one turn and returns every result", async () => {
    const key = uniqueKey("parallel");
    await script(key, [
      {
        tool_calls: [
          { name: "create_task", arguments: { subject: "a" } },
          { name: "create_task", arguments: { subject: "b" } },
          { name: "create_task", arguments: { subject: "c" } },
        ],
      },
      { text: "three tasks" },
    ]);
    const id = await createConversation(key);
    await send(id, "go");
    expect(((await getConversation(id)).tasks as { subject: string }[]).map((t) => t.subject).sort()).toEqual(
      ["a", "b", "c"],
    );
    expect((await modelRequests(key))[1].messages.filter((m) => m.role === "tool")).toHaveLength(3);
  });

  it("stops a run at its step limit", async () => {
    const key = uniqueKey("steps");
    const turns = Array.from({ length: 5 }, (_, i) => ({
      tool_calls: [{ name: "create_task", arguments: { subject: `t${i}` } }],
    }));
    await script(key, turns);
    const id = await createConversation(key, { max_steps: 3 });
    const events = await send(id, "go");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "step_limit" });
    expect(await modelRequests(key)).toHaveLength(3);
  });

  it("refuses the same call repeated turn after turn, then ends a run that keeps looping", async () => {
    const key = uniqueKey("loop");
    await script(key, [{ tool_calls: [{ name: "list_tasks", arguments: {} }] }], true);
    const id = await createConversation(key);
    const events = await send(id, "go");
    const codes = events
      .filter((e) => e.data.type === "TOOL_CALL_RESULT")
      .map((e) =>
        (e.data.content as string).includes('"ok":false')
          ? JSON.parse(e.data.content as string).error.code
          : "ok",
      );
    expect(codes).toEqual(["ok", "ok", "repeated_call", "repeated_call", "loop_detected"]);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "loop_detected" });
  });
});

describe("large conversations", () => {
  it("stores a message bigger than a storage cell and gives it back whole", async () => {
    const key = uniqueKey("big");
    await script(key, [{ text: "got it" }]);
    const id = await createConversation(key);
    const big = "x".repeat(450_000) + "é".repeat(40_000);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: big, stream: false },
    });
    expect(res.status).toBe(200);
    const conv = await getConversation(id);
    expect((conv.messages as { content: string }[])[0].content).toBe(big);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(events.find((e) => e.data.type === "TEXT_MESSAGE_CONTENT")!.data.delta).toBe(big);
  });

  it("summarises older turns when the context nears the window instead of dropping them", async () => {
    const key = uniqueKey("compact");
    const filler = "lorem ipsum dolor sit amet ".repeat(1_500); // about 10,000 tokens
    await script(key, [
      ...Array.from({ length: 6 }, (_, i) => ({ text: `answer ${i}` })),
      { text: "SUMMARY: the user sent six long messages" },
      { text: "final after summary" },
    ]);
    // Summarising starts at 75% of the window (9,000 tokens), the tools' definitions (about 5,000) counted.
    const id = await createConversation(key, { context_window: 12_000 });
    for (let i = 0; i < 6; i++) {
      await api(`/v1/conversations/${id}/messages`, {
        method: "POST",
        json: { content: `message ${i}`, stream: false },
      });
    }
    expect(await modelRequests(key)).toHaveLength(6); // no summary needed yet
    const events = await send(id, `last one ${filler}`);
    expect(
      events.some(
        (e) => e.data.type === "CUSTOM" && (e.data.value as { kind: string }).kind === "context_compacted",
      ),
    ).toBe(true);
    const requests = await modelRequests(key);
    const last = requests.at(-1)!;
    expect(JSON.stringify(last.messages)).toContain("SUMMARY: the user sent six long messages");
    expect(JSON.stringify(last.messages)).not.toContain("message 0");
    expect(JSON.stringify(requests[6].messages)).toContain("message 0"); // the summary request saw the old turns
    expect(((await getConversation(id)).messages as unknown[]).length).toBe(14);
  });
});
