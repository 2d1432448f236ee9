import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationObject } from "../../../durable-objects/conversation/conversation-object";
import { api, createConversation, env, modelRequests, readSse, release, script, uniqueKey } from "../helpers";
import { addServer, control, MCP_TEST_TOKEN, serverLog, tenantUrl, toolResultsById } from "./mcp-helpers";

const send = (id: string, content: string) =>
  api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, stream: false } });
const auth = { Authorization: `Bearer ${MCP_TEST_TOKEN}` };
const conversationStub = (id: string) => {
  const ns = env.CONVERSATIONS as DurableObjectNamespace<ConversationObject>;
  return ns.get(ns.idFromName(`default/${id}`));
};
/** The CUSTOM notice events of a conversation. */
async function notices(id: string) {
  const res = await api(`/v1/conversations/${id}/events`);
  const all = await readSse(res, (_m, list) => list.length > 0 && _m.data.type === "RUN_FINISHED");
  return all
    .filter((m) => m.data.type === "CUSTOM" && m.data.name === "notice")
    .map((m) => m.data.value as Record<string, unknown>);
}

/** The tool names the workspace's registry lists for a server. */
async function registryToolNames(name: string): Promise<string[]> {
  const servers = (await (await api("/v1/mcp/servers")).json()) as {
    data: { name: string; tools: { name: string }[] }[];
  };
  return servers.data.find((s) => s.name === name)!.tools.map((t) => t.name);
}

beforeAll(async () => {
  await api("/v1/mcp/servers");
  await addServer({ name: "sess", url: tenantUrl("bearer", "sess"), headers: auth });
  await addServer({ name: "flaky", url: tenantUrl("bearer", "flaky"), headers: auth });
  await addServer({ name: "dyn", url: tenantUrl("bearer", "dyn"), headers: auth });
}, 60_000);

describe("MCP sessions", () => {
  it("keep one session per conversation across a restart of its object, and re-initialise when the server forgot it", async () => {
    const key = uniqueKey("mcp-session");
    await script(key, [
      { tool_calls: [{ id: "a", name: "sess__lookup", arguments: { id: `${key}-1` } }] },
      { text: "one" },
      { tool_calls: [{ id: "b", name: "sess__lookup", arguments: { id: `${key}-2` } }] },
      { text: "two" },
      { tool_calls: [{ id: "c", name: "sess__lookup", arguments: { id: `${key}-3` } }] },
      { text: "three" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["sess"] });
    expect(await (await send(id, "first")).json()).toMatchObject({ output: "one" });
    const before = (await serverLog("bearer", "sess")).initializes;
    await abortAllDurableObjects(); // hibernation, eviction or a deploy: the object's memory is gone
    expect(await (await send(id, "second")).json()).toMatchObject({ output: "two" });
    let log = await serverLog("bearer", "sess");
    const session = (n: number) =>
      log.calls.find((c) => (c.args as { id: string }).id === `${key}-${n}`)!.session;
    expect(session(2)).toBe(session(1)); // resumed, not a new session
    expect(log.initializes).toBe(before);
    await control("bearer", "forget-sessions", "sess"); // the server restarted
    expect(await (await send(id, "third")).json()).toMatchObject({ output: "three" });
    log = await serverLog("bearer", "sess");
    expect(session(3)).not.toBe(session(1));
    expect(log.initializes).toBe(before + 1);
    expect(JSON.parse((await toolResultsById(key)).get("c")!).text).toBe(`order ${key}-3 is shipped`);
  });
});

describe("a server that is down", () => {
  it("is left out of the run with a notice, and the model is told which server is unavailable", async () => {
    const key = uniqueKey("mcp-down");
    await script(key, [{ text: "without it" }]);
    const id = await createConversation(key, { mcp_servers: ["flaky", "sess"] });
    await control("bearer", "down", "flaky");
    try {
      expect(await (await send(id, "go")).json()).toMatchObject({
        status: "succeeded",
        output: "without it",
      });
    } finally {
      await control("bearer", "up", "flaky");
    }
    const req = (await modelRequests(key))[0];
    const names = ((req.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names.some((n) => n.startsWith("flaky__"))).toBe(false);
    expect(names).toContain("sess__lookup");
    const system = req.messages.find((m) => m.role === "system")!.content as string;
    expect(system).toContain("These MCP servers are unavailable right now");
    expect(system).toContain("- flaky: flaky could not be reached (HTTP 503: down)");
    expect(await notices(id)).toContainEqual(
      expect.objectContaining({ kind: "mcp_server_unavailable", server: "flaky", code: "unreachable" }),
    );
  });

  it("going down mid-run gives the model a tool error and the run goes on", async () => {
    const key = uniqueKey("mcp-midrun");
    await script(key, [
      { tool_calls: [{ id: "a", name: "flaky__lookup", arguments: { id: "x1" } }] },
      { hang: true, tool_calls: [{ id: "b", name: "flaky__lookup", arguments: { id: "x2" } }] },
      { text: "coped" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["flaky"] });
    const done = send(id, "go");
    await expect.poll(async () => (await modelRequests(key)).length, { timeout: 10_000 }).toBe(2);
    await control("bearer", "down", "flaky");
    try {
      await release(key);
      expect(await (await done).json()).toMatchObject({ status: "succeeded", output: "coped" });
    } finally {
      await control("bearer", "up", "flaky");
    }
    const results = await toolResultsById(key);
    expect(JSON.parse(results.get("a")!).text).toBe("order x1 is shipped");
    const error = JSON.parse(results.get("b")!).error;
    expect(error.code).toBe("mcp_server_unavailable");
    expect(error.message).toBe("The MCP server flaky could not be reached for lookup (HTTP 503: down).");
  });
});

describe("tool lists and results", () => {
  it("keeps a run's tool list as it started when the server's list changes (tools/list_changed), and offers the new list from the next run", async () => {
    const key = uniqueKey("mcp-changed");
    await script(key, [
      { tool_calls: [{ id: "a", name: "dyn__add_tool", arguments: {} }] },
      { hang: true, tool_calls: [{ id: "b", name: "dyn__extra", arguments: {} }] },
      { text: "not yet" },
      { tool_calls: [{ id: "c", name: "dyn__extra", arguments: {} }] },
      { text: "used it" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["dyn"] });
    const first = send(id, "go");
    // The model's turn b waits until the conversation has read the changed list (it saves it in
    // the registry), so the run has seen the notification when the model calls the new tool.
    await expect.poll(() => registryToolNames("dyn"), { timeout: 10_000 }).toContain("extra");
    await release(key);
    expect(await (await first).json()).toMatchObject({ output: "not yet" });
    expect(await (await send(id, "again")).json()).toMatchObject({ output: "used it" });
    const requests = await modelRequests(key);
    const toolsAt = (i: number) => JSON.stringify(requests[i].tools);
    const namesAt = (i: number) =>
      ((requests[i].tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    // The first run: the same tools, byte for byte, on every request, though the server added one.
    expect(toolsAt(1)).toBe(toolsAt(0));
    expect(toolsAt(2)).toBe(toolsAt(0));
    expect(namesAt(2)).not.toContain("dyn__extra");
    const results = await toolResultsById(key);
    expect(JSON.parse(results.get("b")!).error.code).toBe("unknown_tool");
    // The next run is offered the new list, and the new tool works.
    expect(namesAt(3)).toEqual([...namesAt(0), "dyn__extra"]);
    expect(results.get("c")).toBe("extra!");
  });

  it("applies allowed_tools of the conversation and of the server", async () => {
    const key = uniqueKey("mcp-allowed");
    await script(key, [{ text: "ok" }]);
    const server = await addServer({
      name: "narrow",
      url: tenantUrl("bearer", "narrow"),
      headers: auth,
      allowed_tools: ["lookup", "fail"],
    });
    expect(server.tools.length).toBeGreaterThan(2); // the list shows every tool; only two are offered
    const id = await createConversation(key, {
      mcp_servers: ["narrow", "sess"],
      allowed_tools: ["narrow__lookup", "narrow__fail", "sess__fail"],
    });
    await send(id, "go");
    const names = ((await modelRequests(key))[0].tools as { function: { name: string } }[])
      .map((t) => t.function.name)
      .sort();
    expect(names).toEqual(["finish", "narrow__fail", "narrow__lookup", "sess__fail"]);
  });

  it("puts big results through the result budget and spill, and stops a call at the tool timeout", async () => {
    const key = uniqueKey("mcp-budget");
    await script(key, [
      { tool_calls: [{ id: "a", name: "sess__big", arguments: { lines: 20_000 } }] },
      { tool_calls: [{ id: "b", name: "sess__slow", arguments: { ms: 5_000 } }] },
      { text: "ok" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["sess"] });
    await runInDurableObject(conversationStub(id), async (obj: ConversationObject) => {
      // The config lives in the object's parts (conversation-parts.ts), shared by all of them.
      (obj as unknown as { p: { config: { limits: { timeoutMs: number } } } }).p.config.limits.timeoutMs =
        1_000;
    });
    expect(await (await send(id, "go")).json()).toMatchObject({ output: "ok" });
    const results = await toolResultsById(key);
    const big = results.get("a")!;
    expect(big.length).toBeLessThan(60_000);
    expect(big).toMatch(/The whole result \(20000 lines\) is saved in the workspace as "\.cirrus\/results\//);
    expect(JSON.parse(results.get("b")!).error).toEqual({
      code: "timeout",
      message: "sess__slow did not finish within 1 s and was stopped.",
    });
  });
});
