import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SseReader } from "../../support/sse";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  modelRequests,
  readSse,
  release,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

describe("the conversation event stream", () => {
  it("resumes after Last-Event-ID with every later event exactly once, in order", async () => {
    const key = uniqueKey("resume");
    await script(key, [
      { text: "first answer", chunks: 6 },
      { text: "second answer", chunks: 6 },
    ]);
    const id = await createConversation(key);
    const first = await readSse(
      await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "one" } }),
      untilRunEnd,
    );
    await readSse(
      await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "two" } }),
      untilRunEnd,
    );

    const all = await readSse(
      await api(`/v1/conversations/${id}/events`),
      (_m, got) => got.filter(untilRunEnd).length === 2,
    );
    const seqs = all.map((e) => e.id!);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));

    // A client that saw up to the middle of the first run reconnects with Last-Event-ID.
    const cut = first[Math.floor(first.length / 2)].id!;
    const resumed = await readSse(
      await api(`/v1/conversations/${id}/events`, { headers: { "last-event-id": String(cut) } }),
      (_m, got) => got.filter(untilRunEnd).length === 2,
    );
    expect(resumed.map((e) => e.id)).toEqual(seqs.filter((s) => s > cut));
    const viaQuery = await readSse(
      await api(`/v1/conversations/${id}/events?after=${cut}`),
      (_m, got) => got.filter(untilRunEnd).length === 2,
    );
    expect(viaQuery.map((e) => e.id)).toEqual(seqs.filter((s) => s > cut));
  });

  it("keeps the stream open with heartbeats and delivers live events of later runs", async () => {
    const key = uniqueKey("live");
    await script(key, [{ text: "live answer" }]);
    const id = await createConversation(key);
    const stream = new SseReader((await api(`/v1/conversations/${id}/events`)).body!);
    await stream.untilText(": heartbeat");
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    await stream.untilText('"RUN_FINISHED"');
    expect(stream.text).toContain("live answer");
    await stream.close();
  });
});

describe("messages during a run", () => {
  it("queues a message sent during a run and handles it afterwards, in order", async () => {
    const key = uniqueKey("queue");
    await script(key, [{ text: "answer one", hang: true }, { text: "answer two" }]);
    const id = await createConversation(key);
    const firstRes = api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "one", stream: false },
    });
    await eventually(async () => (await getConversation(id)).status === "running");
    const second = api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "two", stream: false },
    });
    await eventually(async () => (await getConversation(id)).queued_runs === 1);
    await release(key);
    expect((await (await firstRes).json()) as object).toMatchObject({
      status: "succeeded",
      output: "answer one",
    });
    expect((await (await second).json()) as object).toMatchObject({
      status: "succeeded",
      output: "answer two",
    });
    const messages = (await getConversation(id)).messages as { role: string; content: string }[];
    expect(messages.map((m) => m.content)).toEqual(["one", "answer one", "two", "answer two"]);
  });

  it("starts one run for the same idempotency key sent twice", async () => {
    const key = uniqueKey("idem");
    await script(key, [{ text: "only once" }]);
    const id = await createConversation(key);
    const body = { content: "do it", stream: false, idempotency_key: "abc-123" };
    const [a, b] = await Promise.all([
      api(`/v1/conversations/${id}/messages`, { method: "POST", json: body }),
      api(`/v1/conversations/${id}/messages`, { method: "POST", json: body }),
    ]);
    const ra = (await a.json()) as { run_id: string; output: string };
    const rb = (await b.json()) as { run_id: string; output: string };
    expect(ra.run_id).toBe(rb.run_id);
    expect(ra.output).toBe("only once");
    const messages = (await getConversation(id)).messages as unknown[];
    expect(messages).toHaveLength(2);
  });

  it("answers a retry of a finished message, after a restart, with that run and no second one (agents #1094)", async () => {
    const key = uniqueKey("idem-retry");
    await script(key, [{ text: "booked once" }, { text: "booked twice" }]);
    const id = await createConversation(key);
    const body = { content: "book the table", idempotency_key: "booking-7" };
    const first = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: body });
    const events = await readSse(first, untilRunEnd);
    await abortAllDurableObjects();

    // The client never saw the answer (say its connection dropped) and sends the same message again.
    const retry = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: body });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("x-run-id")).toBe(first.headers.get("x-run-id"));
    const replayed = await readSse(retry, untilRunEnd);
    expect(replayed).toEqual(events);
    expect(replayed[0].data).toMatchObject({ type: "RUN_STARTED", runId: first.headers.get("x-run-id") });
    const waited = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { ...body, stream: false },
    });
    expect(await waited.json()).toMatchObject({
      run_id: first.headers.get("x-run-id"),
      output: "booked once",
    });
    expect(await modelRequests(key)).toHaveLength(1);
    const messages = (await getConversation(id)).messages as { content: string }[];
    expect(messages.map((m) => m.content)).toEqual(["book the table", "booked once"]);
  });

  it("returns run_id, status, output and usage without streaming", async () => {
    const key = uniqueKey("nostream");
    await script(key, [{ text: "plain result", usage: { prompt_tokens: 11, completion_tokens: 3 } }]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "hi", stream: false },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: "succeeded",
      output: "plain result",
      usage: { input_tokens: 11, output_tokens: 3, total_tokens: 14 },
    });
    expect(body.run_id).toMatch(/^run_/);
  });

  it("cancels the current run and then handles the next message", async () => {
    const key = uniqueKey("cancel");
    await script(key, [{ text: "never finished", hang: true }, { text: "after cancel" }]);
    const id = await createConversation(key);
    const stream = api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "slow" } });
    // Cancel while the model is answering (its request has arrived and is held).
    await eventually(async () => (await modelRequests(key)).length === 1);
    const cancel = await api(`/v1/conversations/${id}/cancel`, { method: "POST" });
    expect(((await cancel.json()) as { cancelled: boolean }).cancelled).toBe(true);
    const events = await readSse(await stream, untilRunEnd);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    expect(events.filter((e) => e.data.type === "RUN_FINISHED")).toHaveLength(1);
    await release(key);
    const next = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "again", stream: false },
    });
    expect((await next.json()) as object).toMatchObject({ status: "succeeded", output: "after cancel" });
  });
});
