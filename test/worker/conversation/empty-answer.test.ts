import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  eventually,
  modelRequests,
  readSse,
  release,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";
import { send } from "./approvals-helpers";

type Message = { role: string; content: unknown };
const run = async (id: string) =>
  (await (
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go", stream: false } })
  ).json()) as Record<string, unknown>;

describe("a model turn with no text and no tool call", () => {
  it("is sent back once with a note, and the run ends with the answer that follows", async () => {
    const key = uniqueKey("empty-once");
    await script(key, [{ text: "" }, { text: "Paris." }]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "Paris." });
    const second = (await modelRequests(key))[1].messages as Message[];
    expect(second.at(-1)?.role).toBe("system");
    expect(String(second.at(-1)?.content)).toContain("Your last reply was empty");
  });

  it("twice: the run's answer is what the model wrote beside its last tool call", async () => {
    const key = uniqueKey("empty-twice");
    await script(key, [
      {
        text: "The capital is Paris.",
        tool_calls: [{ name: "create_task", arguments: { subject: "check" } }],
      },
      { text: "" },
      { text: " " },
    ]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "The capital is Paris." });
    expect(await modelRequests(key)).toHaveLength(3);
  });

  it("twice with nothing written before: the run fails empty_answer instead of succeeding with nothing", async () => {
    const key = uniqueKey("empty-never");
    await script(key, [{ text: "" }, { text: "" }, { text: "never asked" }]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "failed", output: null, error: { code: "empty_answer" } });
    expect(await modelRequests(key)).toHaveLength(2);
  });

  it("keeps its note for later when a message was steered in during the empty turn", async () => {
    const key = uniqueKey("empty-steered");
    await script(key, [{ text: "", hang: true }, { text: "" }, { text: "Porto." }]);
    const id = await createConversation(key);
    await send(id, "Plan Lisbon");
    await eventually(async () => (await modelRequests(key)).length === 1);
    const steer = { content: "Porto instead.", steer: true };
    await (await api(`/v1/conversations/${id}/messages`, { method: "POST", json: steer })).body?.cancel();
    await release(key);
    const all = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(all.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "Porto." });
    const second = (await modelRequests(key))[1].messages as Message[];
    expect(second.at(-1)).toEqual({ role: "user", content: "Porto instead." });
    expect(second.filter((m) => m.role === "system" && String(m.content).includes("empty"))).toEqual([]);
  });
});
