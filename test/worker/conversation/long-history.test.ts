import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, getConversation, modelRequests, script, uniqueKey } from "../helpers";

/** More than the 10,000 messages a single read once returned. */
const OLD_TURNS = 10_050;

const stubOf = (conv: string) => env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`default/${conv}`));

/** Writes `n` alternating user/assistant messages straight into the conversation's SQLite, in one statement. */
function seedHistory(conv: string, n: number) {
  return runInDurableObject(stubOf(conv), (_obj, state) => {
    state.storage.sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO messages (scope, run_id, role, tool_call_id, data, at)
       SELECT '', NULL, r.role, NULL, json_object('role', r.role, 'content', 'old turn ' || i), i
       FROM (SELECT i, CASE i % 2 WHEN 1 THEN 'user' ELSE 'assistant' END AS role FROM n) AS r`,
      n,
    );
  });
}

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
    await seedHistory(id, OLD_TURNS);
    await abortAllDurableObjects();

    expect(await ask(id, "the newest question")).toMatchObject({
      status: "succeeded",
      output: "newest answer",
    });
    const [request] = await modelRequests(key);
    expect(request.messages).toHaveLength(1 + OLD_TURNS + 1);
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "the newest question" });
    expect(request.messages[1]).toEqual({ role: "user", content: "old turn 1" });

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
    await seedHistory(id, OLD_TURNS);
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
