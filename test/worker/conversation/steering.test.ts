import { describe, expect, it } from "vitest";
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
import { send } from "./approvals-helpers";

const steer = (id: string, content: string, extra: Record<string, unknown> = {}) =>
  api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, steer: true, ...extra } });

describe("a message sent with steer: true", () => {
  it("joins the active run before its next model turn, stored in order, as a user message of that run", async () => {
    const key = uniqueKey("steer");
    await script(key, [
      { tool_calls: [{ id: "s", name: "shout", arguments: { text: "working" } }], hang: true },
      { text: "Switched to Porto as you asked." },
    ]);
    const id = await createConversation(key);
    await send(id, "Plan a trip to Lisbon");
    await eventually(async () => (await modelRequests(key)).length === 1);

    const res = await steer(id, "Actually, make it Porto.");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-steered")).toBe("true");
    const runId = res.headers.get("x-run-id");
    const stream = readSse(res, untilRunEnd);
    await release(key);
    const events = await stream;

    // The second model request carries the steered message after the first turn's tool result
    // (the run's one date note stands before its first message only).
    const second = (await modelRequests(key))[1].messages;
    expect(second[1]).toMatchObject({ role: "system", content: expect.stringMatching(/^Now: /) });
    expect(second.slice(2).map((m) => [m.role, typeof m.content === "string" ? m.content : null])).toEqual([
      ["user", "Plan a trip to Lisbon"],
      ["assistant", null],
      ["tool", "WORKING"],
      ["user", "Actually, make it Porto."],
    ]);
    // One run: the stream (from the steer on) shows the user's message, then the answer.
    expect(events.filter((e) => e.data.type === "RUN_STARTED")).toHaveLength(0);
    const userStart = events.findIndex((e) => e.data.type === "TEXT_MESSAGE_START" && e.data.role === "user");
    expect(events[userStart + 1].data).toMatchObject({
      type: "TEXT_MESSAGE_CONTENT",
      delta: "Actually, make it Porto.",
    });
    expect(events.at(-1)!.data).toMatchObject({
      type: "RUN_FINISHED",
      runId,
      result: "Switched to Porto as you asked.",
    });
    const conv = await getConversation(id);
    const messages = conv.messages as { role: string; run_id: string; content: string | null }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(new Set(messages.map((m) => m.run_id))).toEqual(new Set([runId]));
    expect(conv.queued_runs).toBe(0);
  });

  it("gets a model turn of its own when it arrives during the run's last turn", async () => {
    const key = uniqueKey("steer-last");
    await script(key, [{ text: "Here is the Lisbon plan.", hang: true }, { text: "And here is Porto." }]);
    const id = await createConversation(key);
    await send(id, "Plan Lisbon");
    await eventually(async () => (await modelRequests(key)).length === 1);
    await (await steer(id, "Also Porto, please.")).body?.cancel();
    await release(key);
    const all = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(all.filter((e) => e.data.type === "RUN_STARTED")).toHaveLength(1);
    expect(all.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "And here is Porto." });
    const last = (await modelRequests(key))[1].messages.at(-1)!;
    expect(last).toEqual({ role: "user", content: "Also Porto, please." });
  });

  it("starts a run as usual when none is active", async () => {
    const id = await createConversation("echo");
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "hello", steer: true, stream: false },
    });
    expect(await res.json()).toMatchObject({ status: "succeeded", output: "echo: hello" });
  });

  it("is taken once per idempotency key", async () => {
    const key = uniqueKey("steer-idem");
    await script(key, [{ text: "first", hang: true }, { text: "second" }]);
    const id = await createConversation(key);
    await send(id, "go");
    await eventually(async () => (await modelRequests(key)).length === 1);
    const runIds: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await steer(id, "only once", { idempotency_key: "steer-1" });
      expect(res.status).toBe(200);
      runIds.push(res.headers.get("x-run-id"));
      await res.body?.cancel();
    }
    expect(runIds[1]).toBe(runIds[0]);
    await release(key);
    await eventually(async () => (await getConversation(id)).status === "idle");
    const users = ((await getConversation(id)).messages as { role: string; content: string }[]).filter(
      (m) => m.role === "user",
    );
    expect(users.map((m) => m.content)).toEqual(["go", "only once"]);
  });
});
