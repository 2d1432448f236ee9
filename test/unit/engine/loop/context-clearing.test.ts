import { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { advanceRun } from "../../../../durable-objects/engine/loop/agent-loop";
import { clearedStub } from "../../../../durable-objects/engine/loop/context-clearing";
import { contextFor } from "../../../../durable-objects/engine/loop/context-window";
import { ClearedResults } from "../../../../durable-objects/engine/store/cleared-results";
import { defineTool } from "../../../../durable-objects/engine/tools/tool";
import { savedResultText } from "../../../../durable-objects/engine/tools/tool-runner";
import { type ScriptedModel, startScriptedModel } from "../../../support/scripted-model";
import type { Turn } from "../../../support/scripted-model-turns";
import { eventsOf, harness, pageText, requests, script, subAgentEvents } from "../../support/loop-harness";

let llm: ScriptedModel;
beforeAll(async () => {
  llm = await startScriptedModel();
});
afterAll(async () => {
  await llm.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const newKey = (name: string) => `${name}-${crypto.randomUUID()}`;
const readPage = (n: number) => ({
  tool_calls: [{ id: `call_p${n}`, name: "read_page", arguments: { url: `https://pages.test/p${n}` } }],
});
type Request = Awaited<ReturnType<typeof requests>>[number];
const bytes = (r: Request) => JSON.stringify([r.tools, r.messages]);
/** Whether request `b` starts with every message of request `a`, byte for byte, and the same tools. */
const extends_ = (a: Request, b: Request) =>
  JSON.stringify(b.tools) === JSON.stringify(a.tools) &&
  JSON.stringify(b.messages.slice(0, a.messages.length)) === JSON.stringify(a.messages);
const contents = (r: Request) => r.messages.map((m) => String(m.content ?? ""));

describe("a stable prefix", () => {
  it("keeps every request a byte-identical extension of the one before, across a minute boundary", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T08:59:30Z"));
    const key = newKey("prefix");
    await script(llm.url, key, [readPage(1), readPage(2), readPage(3), readPage(4), { text: "done" }]);
    const h = harness(llm.url, key, { onTool: () => vi.setSystemTime(Date.now() + 25_000) });
    const runId = h.enqueue("read four pages");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    expect(new Date().toISOString() >= "2026-12-01T09:01").toBe(true);
    const sent = await requests(llm.url, key);
    expect(sent).toHaveLength(5);
    for (let i = 1; i < sent.length; i++) expect(extends_(sent[i - 1], sent[i])).toBe(true);
    // The date is the run's start, in a note before its message; the system prompt has none.
    expect(contents(sent[4])[0]).not.toContain("Now:");
    expect(contents(sent[4])[1]).toMatch(/^Now: 2026-12-01 08:59 UTC\./);
  });
});

describe("the clearing step", () => {
  it("clears all but the newest bulky results into stubs naming the saved file, and the prefix stays stable after", async () => {
    const key = newKey("clear");
    const turns = [1, 2, 3, 4, 5, 6].map(readPage);
    await script(llm.url, key, [...turns, { text: "done" }]);
    const h = harness(llm.url, key, { clearAtTokens: 5_000, keepResults: 2 });
    const runId = h.enqueue("read six pages");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const sent = await requests(llm.url, key);
    const notices = eventsOf(h, "CUSTOM")
      .map((e) => (e.type === "CUSTOM" ? (e.value as Record<string, unknown>) : {}))
      .filter((v) => v.kind === "context_cleared");
    expect(notices.length).toBeGreaterThanOrEqual(1);
    const first = notices[0] as { cleared_results: number; tokens_before: number; tokens_after: number };
    expect(first.cleared_results).toBeGreaterThanOrEqual(1);
    expect(first.tokens_before).toBeGreaterThanOrEqual(5_000);
    expect(first.tokens_after).toBeLessThan(first.tokens_before - 1_500);

    // The last request: pages 1–4 are stubs, the newest two whole.
    const last = contents(sent.at(-1)!);
    const tools = last.filter((_, i) => sent.at(-1)!.messages[i].role === "tool");
    expect(tools).toHaveLength(6);
    for (const n of [1, 2, 3, 4]) {
      const stub = tools[n - 1];
      const path = `.cirrus/results/conv_test/call_p${n}.txt`;
      expect(stub).toMatch(/^\[Cleared: read_page \(/);
      expect(stub).toContain(`https://pages.test/p${n}`);
      // A page's file is shorter than a default read (200 lines): one plain opfs_read gets it whole.
      expect(h.saved.get(path)!.split("\n").length).toBeLessThanOrEqual(200);
      expect(stub).toMatch(/, [\d,]+ characters; saved whole: opfs_read /);
      expect(stub.endsWith(`opfs_read {"path":"${path}"}]`)).toBe(true);
      expect(stub.length).toBeLessThan(200);
      // The saved file is the whole result, laid out as a spilled one is.
      const whole = JSON.stringify({
        url: `https://pages.test/p${n}`,
        content: pageText(`https://pages.test/p${n}`),
      });
      expect(h.saved.get(path)).toBe(savedResultText(JSON.parse(whole), whole).text);
      expect(h.saved.get(path)).toContain(`The last line of https://pages.test/p${n}.`);
    }
    for (const n of [5, 6]) expect(tools[n - 1]).toContain(`The last line of https://pages.test/p${n}.`);
    // Between clearing steps every request extends the one before it.
    const steps = sent.filter((r, i) => i > 0 && !extends_(sent[i - 1], r)).length;
    expect(steps).toBe(notices.length);
    expect(bytes(sent.at(-1)!).length).toBeLessThan(bytes(sent[3]).length * 1.5);
  });

  it("leaves small results, results the model has not seen, and everything under the trigger alone", async () => {
    const key = newKey("under");
    await script(llm.url, key, [readPage(1), readPage(2), { text: "done" }]);
    const h = harness(llm.url, key, { clearAtTokens: 100_000, keepResults: 0 });
    expect(await advanceRun(h.deps, h.enqueue("two pages"))).toBe("finished");
    expect(h.saved.size).toBe(0);
    const last = contents((await requests(llm.url, key)).at(-1)!);
    expect(last.filter((c) => c.includes("The last line of")).length).toBe(2);
  });

  it("counts the tools' definitions toward the trigger: they go with every request", async () => {
    const run = async (extraToolChars: number) => {
      const key = newKey("tools-count");
      const step = { tool_calls: [{ name: "sleep_tool", arguments: { label: "a" } }] };
      await script(llm.url, key, [readPage(1), step, { text: "done" }]);
      const h = harness(llm.url, key, { clearAtTokens: 4_000, keepResults: 0 });
      if (extraToolChars > 0)
        h.deps.tools.add(
          defineTool({
            name: "big_tool",
            description: "x".repeat(extraToolChars),
            parameters: z.object({}),
            execute: async () => ({}),
          }),
        );
      expect(await advanceRun(h.deps, h.enqueue("one page"))).toBe("finished");
      const last = contents((await requests(llm.url, key)).at(-1)!);
      return last.filter((c) => c.startsWith("[Cleared: read_page")).length;
    };
    // The messages alone stay under 4,000 tokens; 12,000 characters of tool definitions put the request over.
    expect(await run(0)).toBe(0);
    expect(await run(12_000)).toBe(1);
  });

  it("clears only when it frees at least half of what it takes out of the prompt cache", async () => {
    // A model turn of 4,500 characters whose result is small: it stays in the context, never cleared.
    const note = (text: string) => ({
      tool_calls: [{ name: "note", arguments: { text: text.repeat(4_500) } }],
    });
    const run = async (turns: Turn[]) => {
      const key = newKey("pays");
      await script(llm.url, key, [...turns, { text: "done" }]);
      const h = harness(llm.url, key, { clearAtTokens: 6_000, keepResults: 0 });
      h.deps.tools.add(
        defineTool({
          name: "note",
          description: "Takes a note.",
          parameters: z.object({ text: z.string() }),
          execute: async () => ({ ok: true }),
        }),
      );
      expect(await advanceRun(h.deps, h.enqueue("go"))).toBe("finished");
      return contents((await requests(llm.url, key)).at(-1)!).filter((c) => c.startsWith("[Cleared: "))
        .length;
    };
    // The page is followed by model turns the cache holds: clearing its 8,000 characters would re-send them all.
    expect(await run([readPage(1), note("a"), note("b"), note("c")])).toBe(0);
    // The same page after them: clearing it takes little else out of the cache.
    expect(await run([note("a"), note("b"), note("c"), readPage(1), note("d")])).toBe(1);
  });

  it("builds the same context after a restart: the cleared state is stored", async () => {
    const key = newKey("restart");
    await script(llm.url, key, [1, 2, 3, 4].map(readPage).concat([{ text: "done" }] as never));
    const h = harness(llm.url, key, { clearAtTokens: 3_000, keepResults: 1 });
    const runId = h.enqueue("four pages");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const before = await contextFor(h.deps, runId);
    // A woken object builds its stores anew over the same SQLite.
    const woken = { ...h.deps, cleared: new ClearedResults(h.sql) };
    expect(JSON.stringify(await contextFor(woken, runId))).toBe(JSON.stringify(before));
    expect(JSON.stringify(before)).toContain("[Cleared: ");
  });
});

describe("a stub", () => {
  it("names the line limit when the saved file is longer than a default read", () => {
    expect(clearedStub("web_fetch (https://a.test/x)", 91_000, ".cirrus/results/c/k.txt", 640)).toBe(
      '[Cleared: web_fetch (https://a.test/x), 91,000 characters; saved whole: opfs_read {"path":".cirrus/results/c/k.txt","limit":640}]',
    );
    expect(clearedStub("web_fetch", 900, "p.txt", 200)).toBe(
      '[Cleared: web_fetch, 900 characters; saved whole: opfs_read {"path":"p.txt"}]',
    );
  });
});

describe("sub-agents", () => {
  it("clear in their own context, and only their final report reaches the parent", async () => {
    const key = newKey("sub-clear");
    await script(llm.url, key, [
      { tool_calls: [{ id: "call_agent", name: "agent", arguments: { prompt: "read four pages" } }] },
      ...[1, 2, 3, 4].map(readPage),
      { text: "REPORT: page 1 ends as expected" },
      { text: "parent done" },
    ]);
    const h = harness(llm.url, key, { clearAtTokens: 3_000, keepResults: 1, subAgentMaxSteps: 8 });
    const runId = h.enqueue("delegate");
    expect(await advanceRun(h.deps, runId)).toBe("finished");
    const sent = await requests(llm.url, key);
    const subLast = contents(sent[5]);
    expect(subLast.some((c) => c.startsWith("[Cleared: "))).toBe(true);
    expect(h.saved.has(".cirrus/results/conv_test/call_p1.txt")).toBe(true);
    const cleared = subAgentEvents(h, "call_agent").filter(
      (e) => e.type === "CUSTOM" && (e.value as { kind?: string }).kind === "context_cleared",
    );
    expect(cleared.length).toBeGreaterThanOrEqual(1);
    expect(new ClearedResults(h.sql).scoped("sub:call_agent").stubs().size).toBeGreaterThanOrEqual(1);
    expect(new ClearedResults(h.sql).stubs().size).toBe(0);
    const parentLast = contents(sent.at(-1)!);
    expect(parentLast.join("\n")).not.toContain("words of the page");
    expect(parentLast).toContain("REPORT: page 1 ends as expected");
  });
});
