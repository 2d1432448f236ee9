/**
 * Fallback models (durable-objects/engine/model/fallback.ts): a turn whose model keeps failing
 * transiently goes to the next model, which serves the rest of the run; the next run starts at
 * the primary again. Requests are counted per model at the scripted server.
 */
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
  runMessage,
  script,
  type SseMessage,
  uniqueKey,
  untilRunEnd,
} from "../helpers";
import { page } from "../engine/tools/web-helpers";
import { createJob, settledRun } from "../job/jobs-helpers";

const fallbackEvents = (events: SseMessage[]) =>
  events.filter((e) => e.data.type === "CUSTOM" && e.data.name === "model_fallback").map((e) => e.data.value);

/** A request body as the model saw it, with its model name taken out. */
const withoutModel = (body: Record<string, unknown>) => JSON.stringify({ ...body, model: "" });

describe("fallback models", () => {
  it("moves a failing turn to the first fallback, keeps it for the run, and starts the next run at the primary", async () => {
    const primary = uniqueKey("fb-primary");
    const fallback = uniqueKey("fb-second");
    await script(primary, [{ error: { status: 503, message: "overloaded" } }], true);
    await script(fallback, [
      {
        tool_calls: [{ name: "create_task", arguments: { subject: "a" } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { text: "answered by the fallback", usage: { prompt_tokens: 200, completion_tokens: 20 } },
    ]);
    const prices = { [fallback]: { input_per_mtok: 10_000, output_per_mtok: 100_000 } };
    const priced = await api("/v1/settings", { method: "PUT", json: { model_prices: prices } });
    expect(priced.status).toBe(200);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    expect(await getConversation(id)).toMatchObject({ model: primary, fallback_models: [fallback] });

    const events = await runMessage(id, "hello");
    const end = events.at(-1)!.data as { type: string; result: unknown; usage: Record<string, unknown>[] };
    expect(end).toMatchObject({ type: "RUN_FINISHED", result: "answered by the fallback" });
    expect(fallbackEvents(events)).toEqual([
      {
        from: primary,
        to: fallback,
        reason: "model_unavailable",
        message: expect.stringContaining("503"),
      },
    ]);
    // The primary's retries (MODEL_RETRY_ATTEMPTS, 5), then both turns of the run on the fallback.
    const primaryRequests = await modelRequests(primary);
    const fallbackRequests = await modelRequests(fallback);
    expect(primaryRequests).toHaveLength(5);
    expect(fallbackRequests).toHaveLength(2);
    // The same request, only the model name differs.
    expect(withoutModel(fallbackRequests[0] as never)).toBe(withoutModel(primaryRequests[4] as never));
    // Usage and cost are the fallback's: 300 input tokens at $10,000 and 30 output tokens at $100,000 a million.
    expect(end.usage[0]).toMatchObject({ model: fallback, inputTokens: 300, outputTokens: 30 });
    expect(end.usage[0].cost_usd).toBeCloseTo(6, 9);

    await script(primary, [{ text: "the primary is back" }]);
    const next = await runMessage(id, "again");
    expect(next.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "the primary is back" });
    expect(fallbackEvents(next)).toEqual([]);
    expect(await modelRequests(fallback)).toHaveLength(2);

    const report = await eventually(async () => {
      const res = await api("/v1/usage");
      const body = (await res.json()) as {
        models: { model: string; runs: number; cost_usd: number | null }[];
      };
      const row = body.models.find((m) => m.model === fallback);
      return row?.runs === 1 ? row : null;
    });
    expect(report).toMatchObject({ model: fallback, runs: 1, input_tokens: 300, output_tokens: 30 });
    expect(report.cost_usd).toBeCloseTo(6, 9);
  });

  it("stays on the fallback after the object restarts mid-run", async () => {
    const primary = uniqueKey("fb-restart");
    const fallback = uniqueKey("fb-restart-second");
    await script(primary, [{ error: { status: 503 } }], true);
    await script(fallback, [
      { tool_calls: [{ name: "create_task", arguments: { subject: "a" } }] },
      { text: "lost with the restart", hang: true },
      { text: "done after restart" },
    ]);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    const post = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } });
    await post.body?.cancel();
    await eventually(async () => (await modelRequests(fallback)).length === 2);

    await abortAllDurableObjects(); // an eviction or a deploy while the fallback answers

    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 20_000);
    await release(fallback);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done after restart" });
    expect(fallbackEvents(events)).toHaveLength(1);
    expect(await modelRequests(primary)).toHaveLength(5);
    expect(await modelRequests(fallback)).toHaveLength(3);
  });

  it("summarises a web_fetch page with the fallback the run moved on to, not the failing primary", async () => {
    const primary = uniqueKey("fb-summary");
    const fallback = uniqueKey("fb-summary-second");
    await script(primary, [{ error: { status: 503 } }], true);
    const fetch = { url: page("/web/article"), prompt: "Longest river?" };
    await script(fallback, [
      { tool_calls: [{ id: "call_f", name: "web_fetch", arguments: fetch }] },
      { text: "The Volga." },
      { text: "The Volga, by the fallback." },
    ]);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    const events = await runMessage(id, "Longest river in Europe?");
    const result = events.find((e) => e.data.type === "TOOL_CALL_RESULT")!.data;
    expect(JSON.parse(result.content as string)).toMatchObject({ content: "The Volga." });
    expect(events.at(-1)!.data).toMatchObject({
      type: "RUN_FINISHED",
      result: "The Volga, by the fallback.",
    });
    // Only the first turn's retries went to the primary; the summary (no tools) went to the fallback.
    expect(await modelRequests(primary)).toHaveLength(5);
    const [, summary] = await modelRequests(fallback);
    expect(summary.tools ?? []).toHaveLength(0);
  });

  it("grades the result with the fallback the run moved on to when no grader_model is set", async () => {
    const primary = uniqueKey("fb-grade");
    const fallback = uniqueKey("fb-grade-second");
    const criterion = "Names three European rivers";
    await script(primary, [{ error: { status: 503 } }], true);
    await script(fallback, [
      { text: "The Volga, the Danube and the Ural." },
      { json: { grades: [{ criterion, pass: true, reason: "Three rivers are named." }] } },
    ]);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "Name rivers of Europe", success_criteria: [criterion], stream: false },
    });
    expect(await res.json()).toMatchObject({ status: "succeeded", grades: [{ criterion, pass: true }] });
    expect(await modelRequests(primary)).toHaveLength(5);
    expect(await modelRequests(fallback)).toHaveLength(2);
  });

  it("keeps a budget against the fallback's price: an unpriced fallback stops the run, naming it", async () => {
    const primary = uniqueKey("fb-budget");
    const fallback = uniqueKey("fb-budget-unpriced");
    await script(primary, [{ error: { status: 503 } }], true);
    await script(fallback, [
      { tool_calls: [{ name: "create_task", arguments: { subject: "a" } }] },
      { text: "never asked" },
    ]);
    const prices = { [primary]: { input_per_mtok: 1, output_per_mtok: 1 } };
    expect((await api("/v1/settings", { method: "PUT", json: { model_prices: prices } })).status).toBe(200);
    const id = await createConversation(primary, { fallback_models: [fallback], max_cost_usd: 5 });
    const events = await runMessage(id, "hello");
    const end = events.at(-1)!.data as { type: string; code: string; message: string };
    expect(end).toMatchObject({ type: "RUN_ERROR", code: "cost_limit" });
    expect(end.message).toContain(`model ${fallback} has no price`);
    expect(await modelRequests(fallback)).toHaveLength(1);
  });

  it("does not fall back on a 400: the run fails as without fallbacks", async () => {
    const primary = uniqueKey("fb-400");
    const fallback = uniqueKey("fb-400-second");
    await script(primary, [{ error: { status: 400, message: "bad request" } }]);
    await script(fallback, [{ text: "never asked" }]);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    const events = await runMessage(id, "hello");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "model_error" });
    expect(fallbackEvents(events)).toEqual([]);
    expect(await modelRequests(primary)).toHaveLength(1);
    expect(await modelRequests(fallback)).toHaveLength(0);
  });

  it("does not fall back once the turn streamed part of its answer", async () => {
    const primary = uniqueKey("fb-midway");
    const fallback = uniqueKey("fb-midway-second");
    await script(primary, [{ text: "partial partial partial", stream_error_after_chunks: 2 }], true);
    await script(fallback, [{ text: "never asked" }]);
    const id = await createConversation(primary, { fallback_models: [fallback] });
    const events = await runMessage(id, "hello");
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "model_unreachable" });
    expect(fallbackEvents(events)).toEqual([]);
    expect(await modelRequests(fallback)).toHaveLength(0);
  });

  it("fails with the last error, naming every model tried, when all of them fail", async () => {
    const models = [uniqueKey("fb-all-a"), uniqueKey("fb-all-b"), uniqueKey("fb-all-c")];
    await script(models[0], [{ error: { status: 503 } }], true);
    await script(models[1], [{ error: { status: 429, retry_after: 0.01 } }], true);
    await script(models[2], [{ error: { status: 502, message: "bad gateway" } }], true);
    const id = await createConversation(models[0], { fallback_models: models.slice(1) });
    const events = await runMessage(id, "hello");
    const end = events.at(-1)!.data as { type: string; code: string; message: string };
    expect(end).toMatchObject({ type: "RUN_ERROR", code: "model_unavailable" });
    expect(end.message).toContain("502");
    expect(end.message).toContain(`models tried: ${models.join(", ")}`);
    expect(fallbackEvents(events)).toMatchObject([
      { from: models[0], to: models[1], reason: "model_unavailable" },
      { from: models[1], to: models[2], reason: "model_rate_limited" },
    ]);
    for (const m of models) expect(await modelRequests(m)).toHaveLength(5);
  });

  it("refuses more than 3 fallback models, a name that is not a string or not one line", async () => {
    for (const fallback_models of [["a", "b", "c", "d"], ["a", 5], ["a\u0007b"], ["line\nbreak"]]) {
      const res = await api("/v1/conversations", { method: "POST", json: { fallback_models } });
      expect(res.status, JSON.stringify(fallback_models)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toContain("fallback_models");
    }
  });
});

describe("fallback models of a job", () => {
  it("are validated on create and PATCH, honoured by a run, and cleared with null", async () => {
    const primary = uniqueKey("fb-job");
    const fallback = uniqueKey("fb-job-second");
    await script(primary, [{ error: { status: 500 } }], true);
    await script(fallback, [{ tool_calls: [{ name: "finish", arguments: { result: "report" } }] }]);
    const base = { name: "Fallback job", prompt: "Report.", schedule: "0 7 * * *", model: primary };
    const four = await api("/v1/jobs", {
      method: "POST",
      json: { ...base, fallback_models: ["a", "b", "c", "d"] },
    });
    expect(four.status).toBe(400);
    const job = await createJob({ ...base, fallback_models: [fallback] });
    expect(job.fallback_models).toEqual([fallback]);
    for (const fallback_models of [["a", 5], ["a\u0000b"]]) {
      const res = await api(`/v1/jobs/${job.id}`, { method: "PATCH", json: { fallback_models } });
      expect(res.status, JSON.stringify(fallback_models)).toBe(400);
    }

    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const run = await settledRun(job.id);
    expect(run).toMatchObject({ status: "succeeded", error: null });
    expect(await getConversation(run.conversation_id!)).toMatchObject({ fallback_models: [fallback] });
    expect(await modelRequests(primary)).toHaveLength(5);
    expect(await modelRequests(fallback)).toHaveLength(1);

    const cleared = await api(`/v1/jobs/${job.id}`, { method: "PATCH", json: { fallback_models: null } });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { fallback_models: unknown }).fallback_models).toBeNull();
  });
});
