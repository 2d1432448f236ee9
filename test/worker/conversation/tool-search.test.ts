import { describe, expect, inject, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../helpers";
import { decide, idle, lastToolResults, pendingApprovals, send } from "./approvals-helpers";

const pageUrl = () => inject("pageUrl");
type ModelRequest = Awaited<ReturnType<typeof modelRequests>>[number];
const listed = (r: ModelRequest) =>
  ((r.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const EMAIL = { type: "object", required: ["email"], properties: { email: { type: "string" } } };

/**
 * Registers `count` plain HTTP tools on a conversation, then one answered by the page server's
 * receiver of the same name (armed to return `body`).
 */
async function registerTools(id: string, count: number, tool: Record<string, unknown>, body: unknown) {
  const filler = Array.from({ length: count }, (_, n) => ({
    name: `inventory_${n}`,
    description: `Counts the stock of warehouse ${n}.`,
    parameters: { type: "object", properties: { sku: { type: "string" } } },
    url: `${pageUrl()}/receiver/unused`,
  }));
  const spec = { parameters: EMAIL, url: `${pageUrl()}/receiver/${tool.name}`, ...tool };
  let secret = "";
  for (const json of [...filler, spec]) {
    const res = await api(`/v1/conversations/${id}/http-tools`, { method: "POST", json });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    secret = ((await res.json()) as { secret: string }).secret;
  }
  await fetch(`${pageUrl()}/receiver/${tool.name}/config`, {
    method: "POST",
    body: JSON.stringify({ secret, body }),
  });
}

const receiverLog = async (name: string) =>
  ((await (await fetch(`${pageUrl()}/receiver/${name}/log`)).json()) as { requests: { body: unknown }[] })
    .requests;

describe("a conversation with more tools than a request may list", () => {
  it("lists the built-ins with find_tools and call_tool, finds a tool by what it does and calls it", async () => {
    const key = uniqueKey("tool-search");
    await script(key, [
      { tool_calls: [{ id: "f", name: "find_tools", arguments: { query: "customer record in the CRM" } }] },
      {
        tool_calls: [
          {
            id: "c",
            name: "call_tool",
            arguments: { name: "crm_lookup", arguments: { email: "ann@x.test" } },
          },
          { id: "bad", name: "call_tool", arguments: { name: "web_fetch", arguments: {} } },
        ],
      },
      { text: "found Ann" },
    ]);
    const id = await createConversation(key);
    const description = "Looks a customer record up in the CRM.";
    // 99 of its own (a conversation holds at most 100) and the 36 built-in and deployed tools: 135.
    await registerTools(id, 98, { name: "crm_lookup", description }, { name: "Ann" });
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "who is ann?", stream: false },
    });
    expect(await res.json()).toMatchObject({ status: "succeeded", output: "found Ann" });

    const requests = await modelRequests(key);
    const names = listed(requests[0]);
    expect(names.length).toBeLessThanOrEqual(128);
    expect(names).toEqual(expect.arrayContaining(["find_tools", "call_tool", "web_fetch", "finish"]));
    expect(names.filter((n) => n.startsWith("inventory_") || n === "crm_lookup")).toEqual([]);
    // The same list on every request: the prefix the provider caches does not move.
    for (const r of requests) expect(JSON.stringify(r.tools)).toBe(JSON.stringify(requests[0].tools));
    const found = JSON.parse((await toolResult(key, "f")) ?? "null") as {
      tools: { name: string; description: string; parameters: unknown }[];
      more_matches: number;
      not_listed: number;
    };
    expect(found.tools[0]).toEqual({ name: "crm_lookup", description, parameters: EMAIL });
    expect(found.not_listed).toBe(99);
    expect(await receiverLog("crm_lookup")).toEqual([
      expect.objectContaining({ body: { email: "ann@x.test" } }),
    ]);
    const results = await lastToolResults(key);
    expect(JSON.parse(results.c)).toEqual({ name: "Ann" });
    expect(JSON.parse(results.bad).error).toMatchObject({ code: "invalid_arguments" });
    expect(JSON.parse(results.bad).error.message).toContain("call a listed tool directly");
  });

  it("holds a call_tool call for the approval its tool needs, under the tool's own name", async () => {
    const key = uniqueKey("tool-search-approval");
    await script(key, [
      {
        tool_calls: [
          { id: "c", name: "call_tool", arguments: { name: "crm_erase", arguments: { email: "bo@x.test" } } },
        ],
      },
      { text: "erased" },
    ]);
    const id = await createConversation(key);
    const tool = { name: "crm_erase", description: "Erases a customer.", approval: "ask" };
    await registerTools(id, 98, tool, { erased: true });
    await send(id, "erase bo");
    const [pending] = await pendingApprovals(id);
    expect(pending).toMatchObject({ tool_name: "crm_erase", arguments: { email: "bo@x.test" } });
    expect(await receiverLog("crm_erase")).toEqual([]);
    await decide(id, pending.approval_id, { decision: "approve" });
    await idle(id);
    expect(await receiverLog("crm_erase")).toEqual([
      expect.objectContaining({ body: { email: "bo@x.test" } }),
    ]);
  });

  it("ends a run that repeats a call_tool call naming no tool it may call, as it would any call", async () => {
    const key = uniqueKey("tool-search-repeat");
    const call = (id: string) => ({ id, name: "call_tool", arguments: { name: "crm_nope", arguments: {} } });
    await script(key, [
      ...["a", "b", "c", "d", "e"].map((id) => ({ tool_calls: [call(id)] })),
      { text: "never asked" },
    ]);
    const id = await createConversation(key);
    await registerTools(id, 98, { name: "crm_lookup", description: "Looks a customer up." }, {});
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "who is ann?", stream: false },
    });
    expect(await res.json()).toMatchObject({ status: "failed", error: { code: "loop_detected" } });
    expect(await modelRequests(key)).toHaveLength(5);
    expect(JSON.parse((await toolResult(key, "c")) ?? "null").error.code).toBe("repeated_call");
  });

  it("runs an approved call_tool call after its conversation's tools came to fit the list", async () => {
    const key = uniqueKey("tool-search-resume");
    await script(key, [
      {
        tool_calls: [
          { id: "c", name: "call_tool", arguments: { name: "crm_erase", arguments: { email: "cy@x.test" } } },
        ],
      },
      { text: "erased" },
    ]);
    const id = await createConversation(key);
    const tool = { name: "crm_erase", description: "Erases a customer.", approval: "ask" };
    await registerTools(id, 98, tool, { erased: true });
    await send(id, "erase cy");
    const [pending] = await pendingApprovals(id);
    // Ten fewer tools: 125 with the built-ins, all listed again.
    for (let n = 0; n < 10; n++)
      expect((await api(`/v1/conversations/${id}/http-tools/inventory_${n}`, { method: "DELETE" })).ok).toBe(
        true,
      );
    await decide(id, pending.approval_id, { decision: "approve" });
    await idle(id);
    expect(await receiverLog("crm_erase")).toEqual([
      expect.objectContaining({ body: { email: "cy@x.test" } }),
    ]);
    expect(JSON.parse((await lastToolResults(key)).c)).toEqual({ erased: true });
  });

  it("searches for them too when their definitions would take over a tenth of the context window", async () => {
    const key = uniqueKey("tool-search-tokens");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key, { context_window: 20_000 });
    await registerTools(id, 60, { name: "crm_lookup", description: "Looks a customer up." }, {});
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    const names = listed((await modelRequests(key))[0]);
    expect(names).toContain("find_tools");
    expect(names.filter((n) => n.startsWith("inventory_"))).toEqual([]);
  });

  it("answers a call of a name no tool has with the tool it most likely meant", async () => {
    const key = uniqueKey("tool-near");
    await script(key, [
      {
        tool_calls: [
          { id: "bare", name: "lookup", arguments: {} },
          { id: "typo", name: "web-fetch", arguments: {} },
          { id: "none", name: "teleport", arguments: {} },
        ],
      },
      { text: "ok" },
    ]);
    const id = await createConversation(key);
    await registerTools(id, 2, { name: "crm__lookup", description: "Looks a customer up." }, {});
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    const results = await lastToolResults(key);
    const message = (callId: string) => JSON.parse(results[callId]).error.message as string;
    expect(message("bare")).toContain(
      'There is no tool named "lookup". Did you mean crm__lookup? Available tools:',
    );
    expect(message("typo")).toContain("Did you mean web_fetch?");
    expect(message("none")).not.toContain("Did you mean");
  });

  it("lists every tool while they fit", async () => {
    const key = uniqueKey("tool-search-fits");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key);
    await registerTools(id, 3, { name: "crm_lookup", description: "Looks a customer up." }, {});
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    const names = listed((await modelRequests(key))[0]);
    expect(names).toEqual(expect.arrayContaining(["inventory_0", "inventory_2", "crm_lookup"]));
    expect(names).not.toContain("find_tools");
  });
});

/** The content of the tool result a later request carried for call `id`. */
async function toolResult(key: string, id: string): Promise<string | undefined> {
  for (const r of await modelRequests(key)) {
    const m = (r.messages as { role: string; tool_call_id?: string; content: unknown }[]).find(
      (x) => x.role === "tool" && x.tool_call_id === id,
    );
    if (m) return String(m.content);
  }
  return undefined;
}
