import { describe, expect, it } from "vitest";
import { api, createConversation, getConversation, script, uniqueKey } from "../helpers";

describe("conversations", () => {
  it("creates with instructions, model and metadata, and shows them back", async () => {
    const res = await api("/v1/conversations", {
      method: "POST",
      json: { instructions: "Be brief.", model: "echo", metadata: { user: "42" } },
    });
    expect(res.status).toBe(201);
    const conv = (await res.json()) as Record<string, unknown>;
    expect(conv).toMatchObject({
      object: "conversation",
      instructions: "Be brief.",
      model: "echo",
      metadata: { user: "42" },
    });
    const details = await getConversation(conv.id as string);
    expect(details).toMatchObject({
      id: conv.id,
      status: "idle",
      messages: [],
      tasks: [],
      pending_question: null,
      usage: { total_tokens: 0 },
    });
  });

  it("sends the conversation's instructions to the model as the system prompt", async () => {
    const key = uniqueKey("instr");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key, { instructions: "Always answer in French." });
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    const reqs = (await (
      await fetch(`${(await import("vitest")).inject("llmUrl")}/__scripts/${key}/requests`)
    ).json()) as {
      requests: { messages: { role: string; content: string }[] }[];
    };
    expect(reqs.requests[0].messages[0]).toMatchObject({ role: "system" });
    expect(reqs.requests[0].messages[0].content).toContain("Always answer in French.");
  });

  it("lists conversations newest first, a page at a time", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createConversation("echo"));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (
        await api(`/v1/conversations?limit=2${cursor ? `&cursor=${cursor}` : ""}`)
      ).json()) as {
        data: { id: string }[];
        has_more: boolean;
        next_cursor: string | null;
      };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((c) => c.id));
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
    // Newest first; conversations made in the same millisecond come in descending id order.
    const created = new Map<string, number>();
    for (const id of ids) created.set(id, (await getConversation(id)).created_at as number);
    const newestFirst = [...ids].sort((a, b) => created.get(b)! - created.get(a)! || (a < b ? 1 : -1));
    expect(seen.filter((id) => ids.includes(id))).toEqual(newestFirst);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("deletes a conversation with everything it stored", async () => {
    const id = await createConversation("echo");
    await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "remember me", stream: false },
    });
    const del = await api(`/v1/conversations/${id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ id, deleted: true });
    expect((await api(`/v1/conversations/${id}`)).status).toBe(404);
    expect((await api(`/v1/conversations/${id}/events`)).status).toBe(404);
    const list = (await (await api("/v1/conversations?limit=100")).json()) as { data: { id: string }[] };
    expect(list.data.map((c) => c.id)).not.toContain(id);
    expect((await api(`/v1/conversations/${id}`, { method: "DELETE" })).status).toBe(404);
  });
});
