import { abortAllDurableObjects } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, api, modelRequests, newWorkspaceKey, script, uniqueKey } from "../helpers";

const MCP_URL = new URL("https://cirrus.test/mcp");
const workerFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  exports.default.fetch(new Request(input, init))) as typeof fetch;

/** An SDK client connected to Cirrus's /mcp with a key. */
async function connect(
  key: string,
  capabilities: Record<string, unknown> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(MCP_URL, {
    fetch: workerFetch,
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return { client, transport };
}

let ws: { id: string; key: string };
let model: string;

beforeAll(async () => {
  ws = await newWorkspaceKey("mcp-server");
  model = uniqueKey("mcp-server");
  const res = await api("/v1/settings", { method: "PUT", token: ws.key, json: { agent: { model } } });
  if (res.status !== 200) throw new Error(await res.text());
}, 60_000);

describe("Cirrus over MCP", () => {
  it("refuses requests without a valid key with 401", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    for (const auth of [null, "Bearer nope", "Bearer sk_default_AAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const res = await workerFetch(MCP_URL, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(auth ? { authorization: auth } : {}),
        },
        body: JSON.stringify(init),
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    await expect(connect("sk_wrong_AAAAAAAAAAAAAAAAAAAAAAAA")).rejects.toMatchObject({ code: 401 });
  });

  it("lists run_agent, web_fetch, web_search and get_conversation", async () => {
    const { client } = await connect(ws.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "get_conversation",
      "run_agent",
      "web_fetch",
      "web_search",
    ]);
    const run = tools.find((t) => t.name === "run_agent")!;
    expect(run.inputSchema.required).toEqual(["prompt"]);
    await client.close();
  });

  it("runs the agent to the end with progress notifications, and continues the conversation", async () => {
    await script(model, [
      { tool_calls: [{ id: "t1", name: "create_task", arguments: { title: "Look around" } }] },
      { text: "The answer is 42." },
      { text: "Still 42." },
    ]);
    const { client } = await connect(ws.key);
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: "run_agent", arguments: { prompt: "What is the answer?" } },
      CallToolResultSchema,
      {
        onprogress: (p) => progress.push(p),
      },
    );
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: "text", text: "The answer is 42." }]);
    const sc = result.structuredContent as {
      conversation_id: string;
      run_id: string;
      status: string;
      usage: { total_tokens: number };
    };
    expect(sc).toMatchObject({ status: "succeeded" });
    expect(sc.conversation_id).toMatch(/^conv_/);
    expect(sc.usage.total_tokens).toBeGreaterThan(0);
    expect(progress.map((p) => p.message)).toEqual(expect.arrayContaining(["calling create_task"]));
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    const again = await client.callTool({
      name: "run_agent",
      arguments: { prompt: "Sure?", conversation_id: sc.conversation_id },
    });
    expect(again.content).toEqual([{ type: "text", text: "Still 42." }]);
    const conv = (await (await api(`/v1/conversations/${sc.conversation_id}`, { token: ws.key })).json()) as {
      messages: { role: string }[];
    };
    expect(conv.messages.filter((m) => m.role === "user")).toHaveLength(2);
    const got = await client.callTool({
      name: "get_conversation",
      arguments: { conversation_id: sc.conversation_id },
    });
    expect(got.structuredContent).toMatchObject({ id: sc.conversation_id, status: "idle" });
    await client.close();
  });

  it("puts ask_user to the client through elicitation when it supports it", async () => {
    await script(model, [
      {
        tool_calls: [
          { id: "q1", name: "ask_user", arguments: { question: "Which colour?", options: ["red", "blue"] } },
        ],
      },
      { text: "Blue it is." },
    ]);
    const { client } = await connect(ws.key, { elicitation: { form: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return { action: "accept", content: { answer: "blue" } };
    });
    const result = await client.callTool({ name: "run_agent", arguments: { prompt: "Pick a colour" } });
    expect(result.content).toEqual([{ type: "text", text: "Blue it is." }]);
    expect(asked).toEqual([
      expect.objectContaining({
        message: "Which colour?",
        requestedSchema: expect.objectContaining({
          properties: { answer: expect.objectContaining({ enum: ["red", "blue"] }) },
        }),
      }),
    ]);
    const answered = (await modelRequests(model)).at(-1)!.messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(answered!.content))).toEqual({ answer: "blue" });
    await client.close();
  });

  it("answers ask_user like an unattended run when the client cannot elicit", async () => {
    await script(model, [
      { tool_calls: [{ id: "q2", name: "ask_user", arguments: { question: "Which colour?" } }] },
      { text: "I decided myself." },
    ]);
    const { client } = await connect(ws.key);
    const result = await client.callTool({ name: "run_agent", arguments: { prompt: "Pick a colour" } });
    expect(result.content).toEqual([{ type: "text", text: "I decided myself." }]);
    const answered = (await modelRequests(model)).at(-1)!.messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(answered!.content))).toEqual({ answer: null, reason: "unattended" });
    await client.close();
  });

  it("keeps a session across an eviction, refuses it to other workspaces, and ends it on DELETE", async () => {
    const { client, transport } = await connect(ws.key);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^mcps_/);
    await abortAllDurableObjects();
    expect((await client.listTools()).tools).toHaveLength(4);
    const other = await workerFetch(MCP_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ADMIN}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(other.status).toBe(400); // an uninitialised session in the admin's workspace, not this one
    await transport.terminateSession();
    const after = await workerFetch(MCP_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ws.key}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/list" }),
    });
    expect(after.status).toBe(400);
    await client.close();
  });
});
