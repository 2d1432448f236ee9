import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createConversation, modelRequests, release, script, uniqueKey } from "../helpers";

type Request = Awaited<ReturnType<typeof modelRequests>>[number];

/** Whether request `b` starts with every message of request `a`, byte for byte, and has the same tools. */
const extendsRequest = (a: Request, b: Request) =>
  JSON.stringify(b.tools) === JSON.stringify(a.tools) &&
  JSON.stringify(b.messages.slice(0, a.messages.length)) === JSON.stringify(a.messages);

const read = (n: number) => ({
  hang: true as const,
  tool_calls: [{ id: `call_r${n}`, name: "opfs_read", arguments: { path: `ctx/p${n}.txt` } }],
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a stable prefix in a conversation", () => {
  it("keeps every request a byte-identical extension of the one before across minute boundaries, the date written once", async () => {
    for (const n of [1, 2]) await api(`/v1/files/ctx/p${n}.txt`, { method: "PUT", body: `page ${n}` });
    // The object runs in this isolate: its clock is the test's (a clock seam, no sleeping).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T08:59:50Z"));
    const key = uniqueKey("prefix-minute");
    await script(key, [read(1), read(2), { hang: true, text: "done" }]);
    const id = await createConversation(key);
    const run = api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "Read two pages.", stream: false },
    });
    // Each model turn is held until the clock has passed another minute boundary.
    for (const [i, at] of [
      "2026-12-01T09:00:20Z",
      "2026-12-01T09:01:40Z",
      "2026-12-01T09:03:05Z",
    ].entries()) {
      await expect.poll(async () => (await modelRequests(key)).length, { timeout: 10_000 }).toBe(i + 1);
      vi.setSystemTime(new Date(at));
      await release(key);
    }
    expect(await (await run).json()).toMatchObject({ status: "succeeded", output: "done" });
    const sent = await modelRequests(key);
    expect(sent).toHaveLength(3);
    expect(extendsRequest(sent[0], sent[1])).toBe(true);
    expect(extendsRequest(sent[1], sent[2])).toBe(true);
    // The system prompt holds no time; the one date note is the run's start, unchanged three minutes on.
    expect(String(sent[2].messages[0].content)).not.toMatch(/\d\d:\d\d/);
    const notes = sent[2].messages.filter((m) => String(m.content ?? "").startsWith("Now: "));
    expect(notes.map((m) => String(m.content).slice(0, 26))).toEqual(["Now: 2026-12-01 08:59 UTC."]);
  });
});
