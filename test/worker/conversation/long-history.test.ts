import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  getConversation,
  modelRequests,
  script,
  seedMessages,
  uniqueKey,
} from "../helpers";

/** More than the 10,000 messages a single read once returned. */
const OLD_TURNS = 10_050;

async function ask(conv: string, content: string) {
  const res = await api(`/v1/conversations/${conv}/messages`, {
    method: "POST",
    json: { content, stream: false },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string; output: unknown };
}

describe("a conversation with more than 10,000 messages", () => {
  it("sends the model every turn including the newest after a restart, and shows the newest 1,000", async () => {
    const key = uniqueKey("long-history");
    await script(key, [{ text: "newest answer" }]);
    const id = await createConversation(key, { context_window: 10_000_000 });
    await seedMessages(id, OLD_TURNS, "old turn");
    await abortAllDurableObjects();

    expect(await ask(id, "the newest question")).toMatchObject({
      status: "succeeded",
      output: "newest answer",
    });
    const [request] = await modelRequests(key);
    // The system prompt, a date note before each run's first message, and every turn.
    expect(request.messages).toHaveLength(1 + OLD_TURNS + 1 + 2);
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "the newest question" });
    expect(String(request.messages.at(-2)!.content)).toMatch(/^Now: /);
    expect(String(request.messages[1].content)).toMatch(/^Now: /);
    expect(request.messages[2]).toEqual({ role: "user", content: "old turn 1" });

    const conv = await getConversation(id);
    const messages = conv.messages as { role: string; content: string }[];
    expect(conv.messages_total).toBe(OLD_TURNS + 2);
    expect(messages).toHaveLength(1_000);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "newest answer" });
    expect(messages.at(-2)).toMatchObject({ role: "user", content: "the newest question" });
  });

  it("summarises the old turns and keeps the newest verbatim when they pass the context window", async () => {
    const key = uniqueKey("long-history-compact");
    await script(key, [{ text: "summary of ten thousand turns" }, { text: "answer after summary" }]);
    const id = await createConversation(key, { context_window: 20_000 });
    await seedMessages(id, OLD_TURNS, "old turn");
    await abortAllDurableObjects();

    expect(await ask(id, "the newest question")).toMatchObject({ output: "answer after summary" });
    const [summaryRequest, turn] = await modelRequests(key);
    // The summary covers the turns past the 10,000th too; the newest ones stay verbatim.
    const summarised = summaryRequest.messages.at(-1)!.content as string;
    expect(summarised.includes(`assistant: old turn ${OLD_TURNS - 10}\n`)).toBe(true);
    expect(turn.messages).toContainEqual({ role: "assistant", content: `old turn ${OLD_TURNS}` });
    expect(turn.messages[1]).toEqual({
      role: "system",
      content: "Summary of the earlier conversation:\nsummary of ten thousand turns",
    });
    expect(turn.messages.at(-1)).toEqual({ role: "user", content: "the newest question" });
    expect(turn.messages.length).toBeLessThan(20);
  });
});
