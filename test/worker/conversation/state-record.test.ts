import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  conversationObject,
  createConversation,
  eventually,
  getConversation,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

/** A streamed answer of 1,200 chunks with a task, then a question, then an answer. */
async function longRunThenQuestion(key: string): Promise<string> {
  await script(key, [
    {
      tool_calls: [{ id: "call_task", name: "create_task", arguments: { subject: "keep me" } }],
      text: "word ".repeat(1_200),
      chunks: 1_200,
    },
    {
      tool_calls: [
        { id: "call_ask", name: "ask_user", arguments: { question: "Go on?", options: ["yes", "no"] } },
      ],
    },
    { text: "Carried on." },
  ]);
  const id = await createConversation(key);
  await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } }).then((r) =>
    r.body?.cancel(),
  );
  await eventually(async () => (await getConversation(id)).status === "waiting_for_user", 20_000);
  return id;
}

describe("the conversation's state across a restart", () => {
  it("is rebuilt once from the whole event log for a conversation stored before the state record", async () => {
    const id = await longRunThenQuestion(uniqueKey("legacy-state"));
    // As a conversation saved by an older version looks: no state row, only events.
    await runInDurableObject(conversationObject(id), (_obj, state) => {
      state.storage.sql.exec("DELETE FROM conversation_state");
    });
    await abortAllDurableObjects();
    const conv = await getConversation(id);
    expect(conv.pending_question).toMatchObject({ question_id: "call_ask" });
    expect(conv.tasks).toMatchObject([{ id: "1", subject: "keep me" }]);
    const rows = await runInDurableObject(conversationObject(id), (_obj, state) =>
      state.storage.sql.exec("SELECT version FROM conversation_state").toArray(),
    );
    expect(rows).toEqual([{ version: 1 }]);
  });

  it("keeps the task list and the pending question after more than 1,000 events since the snapshot", async () => {
    const id = await longRunThenQuestion(uniqueKey("long-state"));

    await abortAllDurableObjects();

    const conv = await getConversation(id);
    expect(conv.status).toBe("waiting_for_user");
    expect(conv.pending_question).toMatchObject({ question_id: "call_ask", question: "Go on?" });
    expect(conv.tasks).toMatchObject([{ id: "1", subject: "keep me", status: "pending" }]);
    const res = await api(`/v1/conversations/${id}/answer`, {
      method: "POST",
      json: { question_id: "call_ask", answer: "yes" },
    });
    expect(res.status).toBe(200);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 20_000);
    expect(events.filter((e) => e.data.type === "TEXT_MESSAGE_CONTENT").length).toBeGreaterThan(1_000);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "Carried on." });
    expect((await getConversation(id)).tasks).toMatchObject([{ id: "1", subject: "keep me" }]);
  });
});
