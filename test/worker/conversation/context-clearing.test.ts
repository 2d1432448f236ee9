import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { savedResultText } from "../../../durable-objects/engine/tools/tool-runner";
import type { UsageReport } from "../../../schemas/usage";
import {
  api,
  createConversation,
  getConversation,
  modelRequests,
  newWorkspaceKey,
  runMessage,
  type SseMessage,
  script,
  uniqueKey,
} from "../helpers";

type Request = Awaited<ReturnType<typeof modelRequests>>[number];

/** A text file of about 10,000 characters whose last line names it. */
const fileText = (n: number) =>
  `${Array.from({ length: 150 }, (_, i) => `file ${n} line ${i + 1}: some words of the file`).join("\n")}\nThe last line of file ${n}.\n`;

const read = (n: number) => ({
  tool_calls: [{ id: `call_r${n}`, name: "opfs_read", arguments: { path: `ctx/f${n}.txt`, limit: 1000 } }],
});

async function putFiles(count: number, token?: string): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const res = await api(`/v1/files/ctx/f${n}.txt`, { method: "PUT", body: fileText(n), token });
    expect([200, 201]).toContain(res.status);
  }
}

const notices = (events: SseMessage[], kind: string) =>
  events
    .map((e) => e.data)
    .filter((d) => d.type === "CUSTOM" && d.name === "notice" && (d.value as { kind?: string }).kind === kind)
    .map((d) => d.value as Record<string, unknown>);

const toolContents = (r: Request) =>
  r.messages.filter((m) => m.role === "tool").map((m) => String(m.content ?? ""));

/** Whether `b` starts with every message of `a`, byte for byte. */
const extendsRequest = (a: Request, b: Request) =>
  JSON.stringify(b.messages.slice(0, a.messages.length)) === JSON.stringify(a.messages) &&
  JSON.stringify(b.tools) === JSON.stringify(a.tools);

describe("clearing old tool results in a conversation", () => {
  it("replaces old results by stubs, saves them whole, says so, and reads a cleared one back whole", async () => {
    await putFiles(5);
    const key = uniqueKey("clear");
    const id = await createConversation(key, { context_clear_at_tokens: 8_000, context_keep_results: 1 });
    const path = `.cirrus/results/${id}/call_r1.txt`;
    await script(key, [
      ...[1, 2, 3, 4, 5].map(read),
      { tool_calls: [{ id: "call_back", name: "opfs_read", arguments: { path, limit: 1000 } }] },
      { text: "File 1 ends with its last line." },
    ]);
    const conv = await getConversation(id);
    expect(conv).toMatchObject({ context_clear_at_tokens: 8_000, context_keep_results: 1 });

    const events = await runMessage(id, "Read the five files.");
    expect(events.at(-1)!.data.type).toBe("RUN_FINISHED");
    const cleared = notices(events, "context_cleared");
    expect(cleared.length).toBeGreaterThanOrEqual(1);
    expect(cleared[0]).toMatchObject({ cleared_results: expect.any(Number), message: expect.any(String) });
    expect(cleared[0].tokens_after as number).toBeLessThan(cleared[0].tokens_before as number);
    expect(cleared[0].tokens_before as number).toBeGreaterThanOrEqual(8_000);

    const sent = await modelRequests(key);
    // Only a clearing step changes what came before: every other request extends the one before it.
    const rewrites = sent.filter((r, i) => i > 0 && !extendsRequest(sent[i - 1], r)).length;
    expect(rewrites).toBe(cleared.length);
    const last = sent.at(-1)!;
    const tools = toolContents(last);
    // Files 1–5 are stubs naming their saved file (the model saw each whole first); the read-back is whole.
    for (const n of [1, 2, 3, 4, 5]) {
      expect(toolContents(sent[n])[n - 1]).toContain(`The last line of file ${n}.`);
      expect(tools[n - 1]).toContain(`[Cleared: opfs_read (ctx/f${n}.txt`);
      expect(tools[n - 1]).toContain(
        `; saved whole: opfs_read {"path":".cirrus/results/${id}/call_r${n}.txt"}]`,
      );
      expect(tools[n - 1]).not.toContain("some words of the file");
    }
    expect(tools[5]).toContain("The last line of file 1.");

    // The saved file holds the whole result the model saw, laid out as a spilled one.
    const firstResult = toolContents(sent[1])[0];
    const saved = await api(`/v1/files/${path}`);
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).toBe(savedResultText(JSON.parse(firstResult), firstResult).text);
    expect(text).toContain(fileText(1).trimEnd());
    // Read back with opfs_read, the whole file came to the model.
    const back = JSON.parse(tools[5]) as { content: string; next_offset: number | null };
    expect(back.next_offset).toBeNull();
    expect(back.content).toContain(fileText(1).trimEnd());
  });

  it("keeps its cleared state across an eviction: the next run's request extends the last one byte for byte", async () => {
    await putFiles(4);
    const key = uniqueKey("clear-evict");
    const id = await createConversation(key, { context_clear_at_tokens: 6_000, context_keep_results: 1 });
    await script(key, [...[1, 2, 3, 4].map(read), { text: "first done" }, { text: "second done" }]);
    const first = await runMessage(id, "Read four files.");
    expect(notices(first, "context_cleared").length).toBeGreaterThanOrEqual(1);
    await abortAllDurableObjects();
    const second = await runMessage(id, "And now?");
    expect(second.at(-1)!.data.type).toBe("RUN_FINISHED");
    const sent = await modelRequests(key);
    const [lastOfFirst, firstOfSecond] = sent.slice(-2);
    expect(toolContents(lastOfFirst).filter((c) => c.startsWith("[Cleared: ")).length).toBe(3);
    expect(extendsRequest(lastOfFirst, firstOfSecond)).toBe(true);
  });

  it("refuses bad overrides with 400 in the one error shape", async () => {
    for (const bad of [
      { context_clear_at_tokens: -1 },
      { context_keep_results: 101 },
      { context_keep_results: 1.5 },
    ]) {
      const res = await api("/v1/conversations", { method: "POST", json: { model: "echo", ...bad } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toContain(Object.keys(bad)[0]);
    }
  });
});

describe("cached input tokens from the wire", () => {
  const shapes = {
    openai: { prompt_tokens_details: { cached_tokens: 750_000 } },
    deepseek: { prompt_cache_hit_tokens: 750_000, prompt_cache_miss_tokens: 250_000 },
    anthropic: { cache_read_input_tokens: 750_000 },
  };
  for (const [shape, cache] of Object.entries(shapes)) {
    for (const streamed of [true, false]) {
      it(`are counted and priced at the cached price: ${shape}, ${streamed ? "streamed" : "not streamed"}`, async () => {
        const ws = await newWorkspaceKey(`cache-${shape}`);
        // deepseek-chat: $0.28 in, $0.028 cached in, $0.42 out per million tokens.
        const key = `${uniqueKey(shape)}/deepseek-chat`;
        await script(key, [
          {
            text: "ok",
            usage: { prompt_tokens: 1_000_000, completion_tokens: 1000, ...cache },
            ...(streamed ? {} : { json_response: true as const }),
          },
        ]);
        const id = await createConversation(key, {}, ws.key);
        const events = await runMessage(id, "hi", ws.key);
        const finished = events.at(-1)!.data as { type: string; usage: Record<string, unknown>[] };
        expect(finished.type).toBe("RUN_FINISHED");
        // (250,000×0.28 + 750,000×0.028 + 1,000×0.42)/1e6 = 0.07 + 0.021 + 0.00042
        expect(finished.usage[0]).toMatchObject({
          inputTokens: 1_000_000,
          cachedInputTokens: 750_000,
          cost_usd: 0.09142,
        });
        expect((await getConversation(id, ws.key)).usage).toMatchObject({ cached_input_tokens: 750_000 });
        const report = (await (await api("/v1/usage", { token: ws.key })).json()) as UsageReport;
        expect(report.sources.find((s) => s.conversation_id === id)).toMatchObject({
          cached_input_tokens: 750_000,
          cost_usd: 0.09142,
        });
      });
    }
  }
});
