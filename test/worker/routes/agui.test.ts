import { exports } from "cloudflare:workers";
import { HttpAgent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { ADMIN, api, createConversation, getConversation, script, uniqueKey } from "../helpers";

const agentFor = (threadId: string) =>
  new HttpAgent({
    url: "https://cirrus.test/v1/agui",
    headers: { authorization: `Bearer ${ADMIN}` },
    threadId,
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });

describe("POST /v1/agui", () => {
  it("serves an unchanged AG-UI HttpAgent: events, messages, state, and a second run on the thread", async () => {
    const key = uniqueKey("agui");
    await script(key, [
      { tool_calls: [{ name: "create_task", arguments: { subject: "from AG-UI" } }] },
      { text: "Hello from Cirrus" },
      { text: "Second answer" },
    ]);
    const threadId = await createConversation(key);
    const agent = agentFor(threadId);
    agent.messages.push({ id: "u1", role: "user", content: "Say hello" });
    const seen: string[] = [];
    const first = await agent.runAgent(
      { runId: `run-${crypto.randomUUID()}` },
      { onEvent: ({ event }) => void seen.push(event.type) },
    );
    expect(seen[0]).toBe("RUN_STARTED");
    expect(seen.at(-1)).toBe("RUN_FINISHED");
    expect(seen).toEqual(
      expect.arrayContaining(["TOOL_CALL_START", "TOOL_CALL_RESULT", "TEXT_MESSAGE_CONTENT", "STATE_DELTA"]),
    );
    expect(first.result).toBe("Hello from Cirrus");
    expect(agent.messages.some((m) => m.role === "assistant" && m.content === "Hello from Cirrus")).toBe(
      true,
    );
    expect((agent.state as { tasks: { subject: string }[] }).tasks.map((t) => t.subject)).toEqual([
      "from AG-UI",
    ]);

    agent.messages.push({ id: "u2", role: "user", content: "Again" });
    const second = await agent.runAgent({ runId: `run-${crypto.randomUUID()}` });
    expect(second.result).toBe("Second answer");
    const conv = await getConversation(threadId);
    expect(
      (conv.messages as { role: string; content: string }[])
        .filter((m) => m.role === "user")
        .map((m) => m.content),
    ).toEqual(["Say hello", "Again"]);
  });

  it("creates the conversation for a thread id it has not seen", async () => {
    const threadId = `thread-${crypto.randomUUID()}`;
    const agent = agentFor(threadId);
    agent.messages.push({ id: "u1", role: "user", content: "ping" });
    const result = await agent.runAgent({ runId: "first-run" });
    expect(result.result).toBe("echo: ping");
    expect((await getConversation(threadId)).status).toBe("idle");
  });

  it("shows an AG-UI client the approval as a CUSTOM event it can resolve through the approvals route", async () => {
    const key = uniqueKey("agui-approval");
    await script(key, [
      { tool_calls: [{ id: "s", name: "shout", arguments: { text: "via ag-ui" } }] },
      { text: "Shouted." },
    ]);
    const threadId = await createConversation(key, { approvals: { shout: "ask" } });
    const agent = agentFor(threadId);
    agent.messages.push({ id: "u1", role: "user", content: "shout" });
    const customs: { name: string; value: Record<string, unknown> }[] = [];
    const result = await agent.runAgent(
      { runId: `run-${crypto.randomUUID()}` },
      {
        onCustomEvent: ({ event }) => {
          const value = event.value as Record<string, unknown>;
          customs.push({ name: event.name, value });
          if (event.name === "approval_requested")
            void api(`/v1/conversations/${threadId}/approvals/${String(value.approval_id)}`, {
              method: "POST",
              json: { decision: "approve" },
            });
        },
      },
    );
    expect(customs.map((c) => c.name)).toEqual(["approval_requested", "approval_resolved"]);
    expect(customs[0].value).toMatchObject({
      tool_call_id: "s",
      tool_name: "shout",
      arguments: { text: "via ag-ui" },
    });
    expect(result.result).toBe("Shouted.");
    expect(agent.messages.some((m) => m.role === "tool" && m.content === "VIA AG-UI")).toBe(true);
  });
});
