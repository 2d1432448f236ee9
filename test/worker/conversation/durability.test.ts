import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  modelRequests,
  readSse,
  release,
  type SseMessage,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

/** Every START has its END, and sequence numbers are gapless. */
function expectWellFormed(events: SseMessage[]) {
  const open = new Set<string>();
  for (const { data } of events) {
    if (data.type === "TEXT_MESSAGE_START") open.add(`t:${data.messageId}`);
    if (data.type === "TEXT_MESSAGE_END") open.delete(`t:${data.messageId}`);
    if (data.type === "TOOL_CALL_START") open.add(`c:${data.toolCallId}`);
    if (data.type === "TOOL_CALL_END") open.delete(`c:${data.toolCallId}`);
    if (data.type === "STEP_STARTED") open.add(`s:${data.stepName}`);
    if (data.type === "STEP_FINISHED") open.delete(`s:${data.stepName}`);
  }
  expect([...open]).toEqual([]);
  const seqs = events.map((e) => e.id!);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0] + i));
}

describe("a run interrupted by a restart", () => {
  it("continues from its last checkpoint without running a finished tool twice", async () => {
    const key = uniqueKey("restart");
    await script(key, [
      { tool_calls: [{ id: "call_task", name: "create_task", arguments: { subject: "only once" } }] },
      { text: "this answer is lost with the crash", hang: true },
      { text: "done after restart" },
    ]);
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } }).then((r) =>
      r.body?.cancel(),
    );
    await eventually(async () => (await modelRequests(key)).length === 2);

    await abortAllDurableObjects(); // the object dies mid model call, as in an eviction or a deploy

    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 20_000);
    await release(key);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done after restart" });
    expect(events.filter((e) => e.data.type === "TOOL_CALL_RESULT")).toHaveLength(1);
    expect(events.filter((e) => e.data.type === "RUN_STARTED")).toHaveLength(1);
    expectWellFormed(events);
    const conv = await getConversation(id);
    expect((conv.tasks as unknown[]).length).toBe(1);
    expect(conv.status).toBe("idle");
    const third = (await modelRequests(key))[2];
    expect(third.messages.filter((m) => m.role === "tool")).toHaveLength(1);
  });
});

describe("ask_user", () => {
  const askTurns = (options?: string[], multiple?: boolean) => [
    {
      tool_calls: [
        { id: "call_ask", name: "ask_user", arguments: { question: "Which colour?", options, multiple } },
      ],
    },
    { text: "Thanks for answering." },
  ];

  it("waits for the answer, refuses answers that are not options, then continues", async () => {
    const key = uniqueKey("ask");
    await script(key, askTurns(["red", "blue"]));
    const id = await createConversation(key);
    const stream = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "pick" },
    });
    const reader = readSse(stream, untilRunEnd);
    const conv = await eventually(async () => {
      const c = await getConversation(id);
      return c.status === "waiting_for_user" ? c : null;
    });
    expect(conv.pending_question).toMatchObject({
      question_id: "call_ask",
      question: "Which colour?",
      options: ["red", "blue"],
      multiple: false,
    });

    const wrong = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "call_ask", answer: "green" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: "invalid_answer" } });
    const mismatch = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "nope", answer: "red" },
    });
    expect(mismatch.status).toBe(409);

    const ok = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "call_ask", answer: "blue" },
    });
    expect(ok.status).toBe(200);
    const events = await reader;
    expect(events.some((e) => e.data.type === "CUSTOM" && e.data.name === "ask_user")).toBe(true);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "Thanks for answering." });
    const toolMsg = (await modelRequests(key))[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMsg!.content as string)).toEqual({ answer: "blue" });
    expect((await getConversation(id)).pending_question).toBeNull();
  });

  it("takes several options when multiple is set", async () => {
    const key = uniqueKey("ask-multi");
    await script(key, askTurns(["a", "b", "c"], true));
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "pick" } }).then((r) =>
      r.body?.cancel(),
    );
    await eventually(async () => (await getConversation(id)).status === "waiting_for_user");
    const res = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "call_ask", answer: ["a", "c"] },
    });
    expect(res.status).toBe(200);
    await eventually(async () => (await getConversation(id)).status === "idle");
    const toolMsg = (await modelRequests(key))[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMsg!.content as string)).toEqual({ answer: ["a", "c"] });
  });

  it("returns {answer: null, reason: 'timeout'} when nobody answers in time", async () => {
    const key = uniqueKey("ask-timeout");
    await script(key, askTurns());
    const id = await createConversation(key);
    const events = await readSse(
      await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "ask me" } }),
      untilRunEnd,
    );
    expect(events.at(-1)!.data.type).toBe("RUN_FINISHED");
    const toolMsg = (await modelRequests(key))[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMsg!.content as string)).toEqual({ answer: null, reason: "timeout" });
  });

  it("still takes the answer after the object restarted while waiting", async () => {
    const key = uniqueKey("ask-restart");
    await script(key, askTurns());
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "ask me" } }).then((r) =>
      r.body?.cancel(),
    );
    await eventually(async () => (await getConversation(id)).status === "waiting_for_user");
    await abortAllDurableObjects();
    expect((await getConversation(id)).pending_question).toMatchObject({ question: "Which colour?" });
    const res = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "call_ask", answer: "teal" },
    });
    expect(res.status).toBe(200);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "Thanks for answering." });
  });
});
