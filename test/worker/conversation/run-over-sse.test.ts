import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  getConversation,
  modelRequests,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

describe("a tool-using run over SSE", () => {
  it("streams the run's events in AG-UI order and stores the messages", async () => {
    const key = uniqueKey("sse");
    await script(key, [
      { tool_calls: [{ id: "call_1", name: "create_task", arguments: { subject: "Find flights" } }] },
      { text: "I created the task.", chunks: 4 },
    ]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "Plan my trip" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = await readSse(res, untilRunEnd);
    const types = events.map((e) => e.data.type);
    expect(types[0]).toBe("RUN_STARTED");
    expect(types.at(-1)).toBe("RUN_FINISHED");
    expect(types).toContain("TOOL_CALL_START");
    expect(types).toContain("TOOL_CALL_RESULT");
    expect(types).toContain("STATE_DELTA");
    // The assistant's words, told from the user's echoed message by the role its START carries.
    const assistantIds = new Set(
      events
        .filter((e) => e.data.type === "TEXT_MESSAGE_START" && e.data.role === "assistant")
        .map((e) => e.data.messageId),
    );
    const text = events.filter(
      (e) => e.data.type === "TEXT_MESSAGE_CONTENT" && assistantIds.has(e.data.messageId),
    );
    expect(text.map((e) => e.data.delta).join("")).toBe("I created the task.");
    const finished = events.at(-1)!.data;
    expect(finished.result).toBe("I created the task.");
    const ids = events.map((e) => e.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const conv = await getConversation(id);
    expect(conv.status).toBe("idle");
    expect((conv.tasks as { subject: string }[]).map((t) => t.subject)).toEqual(["Find flights"]);
    expect((conv.messages as { role: string }[]).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect((conv.usage as { total_tokens: number }).total_tokens).toBeGreaterThan(0);

    const requests = await modelRequests(key);
    expect(requests).toHaveLength(2);
    const toolMsg = requests[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMsg!.content as string)).toMatchObject({
      subject: "Find flights",
      status: "pending",
    });
  });
});
