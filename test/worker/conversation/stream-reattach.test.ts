/**
 * Reattaching to a run's event stream while the run is still going, as peers' users hit it:
 * duplicated replay on resume, nothing before the first token, sub-agent events lost on
 * reconnect, and a reconnect across an eviction. Each reattached client must get every event
 * after its Last-Event-ID exactly once, in order, and nothing it already had.
 */
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
  type SseMessage,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

/** Opens the conversation's event stream after `lastEventId`, as a reconnecting client does. */
const reattach = async (id: string, lastEventId: number) =>
  new SseReader(
    (await api(`/v1/conversations/${id}/events`, { headers: { "last-event-id": String(lastEventId) } }))
      .body!,
  );

/** The whole log from the start to the first run end after `fromSeq`. */
const wholeLog = async (id: string, runs = 1) =>
  readSse(await api(`/v1/conversations/${id}/events`), (_m, all) => all.filter(untilRunEnd).length === runs);

/** `resumed` holds exactly the events of `log` after `cut`: each once, in order, the same data. */
function expectExactlyAfter(resumed: SseMessage[], log: SseMessage[], cut: number) {
  const expected = log.filter((e) => e.id! > cut);
  expect(resumed.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  expect(resumed.map((e) => e.data)).toEqual(expected.map((e) => e.data));
  expect(new Set(resumed.map((e) => e.id)).size).toBe(resumed.length);
}

const PAIRS: Record<string, string> = {
  RUN_STARTED: "RUN_FINISHED",
  TEXT_MESSAGE_START: "TEXT_MESSAGE_END",
  TOOL_CALL_START: "TOOL_CALL_END",
};
const ONCE = new Set([...Object.keys(PAIRS), ...Object.values(PAIRS), "TOOL_CALL_RESULT"]);

/**
 * No run, message or tool call starts, ends or gets its result twice, each one started ends, and
 * steps start and finish alike (a model turn cut by an eviction is closed, then taken again).
 */
function expectEachOnce(events: SseMessage[]) {
  const key = (type: string, d: SseMessage["data"]) => `${type}:${d.messageId ?? d.toolCallId ?? d.runId}`;
  const keys = events.filter((e) => ONCE.has(e.data.type)).map((e) => key(e.data.type, e.data));
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  const unended = events
    .filter((e) => PAIRS[e.data.type] && !keys.includes(key(PAIRS[e.data.type], e.data)))
    .map((e) => key(e.data.type, e.data));
  expect(unended).toEqual([]);
  const steps = (type: string) => events.filter((e) => e.data.type === type).map((e) => e.data.stepName);
  expect(steps("STEP_FINISHED").sort()).toEqual(steps("STEP_STARTED").sort());
}

/** The text of the assistant's messages among `events` (the user's message is a TEXT_MESSAGE too). */
function assistantText(events: SseMessage[]): string {
  const users = new Set(
    events
      .filter((e) => e.data.type === "TEXT_MESSAGE_START" && e.data.role === "user")
      .map((e) => e.data.messageId),
  );
  return events
    .filter((e) => e.data.type === "TEXT_MESSAGE_CONTENT" && !users.has(e.data.messageId))
    .map((e) => e.data.delta)
    .join("");
}

/** Sends a message and reads its stream until `stop`, then drops the connection like a lost client. */
async function sendAndDrop(id: string, content: string, stop: (m: SseMessage) => boolean) {
  const res = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content } });
  const seen = await readSse(res, stop);
  return { seen, runId: res.headers.get("x-run-id")! };
}

describe("reattaching to a run in progress with Last-Event-ID", () => {
  it("gives two clients resuming from the same event every later event once, in order (agents #1733)", async () => {
    const key = uniqueKey("reattach-mid");
    await script(key, [
      { tool_calls: [{ id: "call_task", name: "create_task", arguments: { subject: "Compare plans" } }] },
      { text: "Plan B is cheaper.", chunks: 5, hang: true },
    ]);
    const id = await createConversation(key);
    const { seen } = await sendAndDrop(id, "which plan?", (m) => m.data.type === "TOOL_CALL_RESULT");
    const cut = seen.at(-1)!.id!;
    await eventually(async () => (await modelRequests(key)).length === 2);

    // The same resume offered twice (two tabs, or a client that retried its reconnect), and one from earlier.
    const early = seen[Math.floor(seen.length / 2)].id!;
    const readers = [await reattach(id, cut), await reattach(id, cut), await reattach(id, early)];
    await release(key);
    const resumed = await Promise.all(
      readers.map((r) => r.until(untilRunEnd, 15_000).finally(() => r.close())),
    );

    const log = await wholeLog(id);
    expectExactlyAfter(resumed[0], log, cut);
    expectExactlyAfter(resumed[1], log, cut);
    expectExactlyAfter(resumed[2], log, early);
    expectEachOnce([...seen, ...resumed[0]]);
    expectEachOnce([...seen, ...resumed[1]]);
    expect(assistantText([...seen, ...resumed[0]])).toBe("Plan B is cheaper.");
    expect([...seen, ...resumed[0]].filter((e) => e.data.type === "RUN_FINISHED")).toHaveLength(1);
    expect(await modelRequests(key)).toHaveLength(2);
  });

  it("gives a client reattaching before the first token everything from RUN_STARTED on (agents #1784)", async () => {
    const key = uniqueKey("reattach-first-token");
    await script(key, [{ text: "first answer" }, { text: "second answer", hang: true }]);
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "one", stream: false },
    });
    const before = (await wholeLog(id)).at(-1)!.id!;

    // The client's POST stream is lost right after the message was accepted, before any token.
    const res = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "two" } });
    const runId = res.headers.get("x-run-id");
    await res.body!.cancel();
    await eventually(async () => (await modelRequests(key)).length === 2);
    const conv = await getConversation(id);
    expect(conv.status).toBe("running");
    expect(conv.current_run).toMatchObject({ id: runId });

    const reader = await reattach(id, before);
    const waiting = await reader.until((m) => m.data.type === "TEXT_MESSAGE_END", 15_000);
    expect(waiting[0]).toMatchObject({ id: before + 1, data: { type: "RUN_STARTED", runId, threadId: id } });
    expect(waiting.filter((e) => e.data.type === "TEXT_MESSAGE_CONTENT").map((e) => e.data.delta)).toEqual([
      "two",
    ]);
    await release(key);
    const rest = await reader.until(untilRunEnd, 15_000).finally(() => reader.close());

    expectExactlyAfter([...waiting, ...rest], await wholeLog(id, 2), before);
    expect(assistantText(rest)).toBe("second answer");
    expect(rest.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", runId, result: "second answer" });
    expectEachOnce([...waiting, ...rest]);
  });

  it("gives a client reconnecting during a sub-agent the sub-agent's later events once (agents #1377)", async () => {
    const key = uniqueKey("reattach-sub");
    await script(key, [
      {
        tool_calls: [
          { id: "call_sub", name: "agent", arguments: { prompt: "List the step", description: "helper" } },
        ],
      },
      { tool_calls: [{ id: "call_sub_task", name: "create_task", arguments: { subject: "sub step" } }] },
      { text: "sub-agent result", chunks: 4, hang: true },
      { text: "parent done" },
    ]);
    const id = await createConversation(key);
    const isSub = (m: SseMessage) => m.data.type === "CUSTOM" && m.data.name === "sub_agent_event";
    const subType = (m: SseMessage) => (m.data.value as { event: { type: string } }).event.type;
    // The connection drops at the sub-agent's first event; its tool call happens while no client is there.
    const { seen } = await sendAndDrop(id, "delegate", isSub);
    const cut = seen.at(-1)!.id!;
    await eventually(async () => (await modelRequests(key)).length === 3);

    const reader = await reattach(id, cut);
    await release(key);
    const resumed = await reader.until(untilRunEnd, 15_000).finally(() => reader.close());

    const log = await wholeLog(id);
    expectExactlyAfter(resumed, log, cut);
    const subText = resumed
      .filter((m) => isSub(m) && subType(m) === "TEXT_MESSAGE_CONTENT")
      .map((m) => (m.data.value as { event: { delta: string } }).event.delta)
      .join("");
    expect(subText).toBe("sub-agent result");
    const subTypes = resumed.filter(isSub).map(subType);
    expect(subTypes).toEqual(
      expect.arrayContaining(["TOOL_CALL_START", "TOOL_CALL_RESULT", "TEXT_MESSAGE_END"]),
    );
    expect(subTypes.indexOf("TOOL_CALL_RESULT")).toBeLessThan(subTypes.indexOf("TEXT_MESSAGE_START"));
    expect(
      resumed
        .filter(isSub)
        .every((m) => (m.data.value as { sub_agent_id: string }).sub_agent_id === "call_sub"),
    ).toBe(true);
    expect(resumed.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "parent done" });
    expectEachOnce([...seen, ...resumed]);
  });

  it("gives a client reconnecting after the object was evicted mid-run the rest once, in order", async () => {
    const key = uniqueKey("reattach-evict");
    await script(key, [
      { tool_calls: [{ id: "call_task", name: "create_task", arguments: { subject: "only once" } }] },
      { text: "lost with the eviction", hang: true },
      { text: "done after the eviction", chunks: 3 },
    ]);
    const id = await createConversation(key);
    const { seen } = await sendAndDrop(id, "go", (m) => m.data.type === "TOOL_CALL_RESULT");
    const cut = seen.at(-1)!.id!;
    await eventually(async () => (await modelRequests(key)).length === 2);

    await abortAllDurableObjects();

    const reader = await reattach(id, cut);
    const resumed = await reader.until(untilRunEnd, 20_000).finally(() => reader.close());
    await release(key);
    expectExactlyAfter(resumed, await wholeLog(id), cut);
    const whole = [...seen, ...resumed];
    expect(whole.filter((e) => e.data.type === "RUN_STARTED")).toHaveLength(1);
    expect(whole.filter((e) => e.data.type === "TOOL_CALL_RESULT")).toHaveLength(1);
    expect(assistantText(whole)).toBe("done after the eviction");
    expect(resumed.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done after the eviction" });
    expectEachOnce(whole);
  });
});
