import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { McpRegistry } from "../../../durable-objects/mcp-registry/mcp-registry-object";
import type { McpServerView } from "../../../schemas/mcp";
import { SseReader } from "../../support/sse";
import { api, createConversation, env, modelRequests, script, uniqueKey } from "../helpers";
import {
  addServer,
  MCP_TEST_TOKEN,
  mcpUrls,
  offeredSpec,
  offeredTools,
  serverLog,
  toolResultsById,
} from "./mcp-helpers";

const send = (id: string, content: string) =>
  api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, stream: false } });

// The first request loads the MCP SDK into the test runner's workerd, which takes a while here.
beforeAll(async () => {
  await api("/v1/mcp/servers");
}, 60_000);

describe("registering MCP servers", () => {
  it("connects to the reference server over Streamable HTTP and lists its tools", async () => {
    const server = await addServer({ name: "everything", url: mcpUrls().everything });
    expect(server).toMatchObject({
      object: "mcp_server",
      name: "everything",
      status: "connected",
      header_names: [],
    });
    expect(server.id).toMatch(/^mcp_/);
    const names = server.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-structured-content"]),
    );
    expect(server.tools.find((t) => t.name === "echo")!.description).toBe("Echoes back the input string");
  });

  it("falls back to the older HTTP+SSE transport", async () => {
    const server = await addServer({ name: "legacy", url: mcpUrls().everythingSse });
    expect(server.status).toBe("connected");
    expect(server.tools.map((t) => t.name)).toContain("echo");
  });

  it("keeps headers write-only: the server gets them, the API shows only their names", async () => {
    const server = await addServer({
      name: "crm",
      url: mcpUrls().bearer,
      headers: { Authorization: `Bearer ${MCP_TEST_TOKEN}` },
    });
    expect(server.status).toBe("connected");
    expect(server.header_names).toEqual(["Authorization"]);
    const got = await api(`/v1/mcp/servers/${server.id}`);
    const listed = await api("/v1/mcp/servers");
    for (const body of [JSON.stringify(server), await got.text(), await listed.text()]) {
      expect(body).not.toContain(MCP_TEST_TOKEN);
    }
  });

  it("reports needs_auth when the server refuses the credentials", async () => {
    const server = await addServer({ name: "crm-nokey", url: mcpUrls().bearer });
    expect(server.status).toBe("needs_auth");
    expect(server.tools).toEqual([]);
    expect(server.error).toMatch(/refused the connection \(HTTP 401\)/);
  });

  it("refuses bad names, taken names and bad URLs in the one error shape", async () => {
    const bad = await api("/v1/mcp/servers", {
      method: "POST",
      json: { name: "Bad Name", url: mcpUrls().everything },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const taken = await api("/v1/mcp/servers", {
      method: "POST",
      json: { name: "everything", url: mcpUrls().everything },
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { code: string } }).error.code).toBe("name_taken");
    const ftp = await api("/v1/mcp/servers", {
      method: "POST",
      json: { name: "ftp", url: "ftp://example.com/mcp" },
    });
    expect(ftp.status).toBe(400);
  });

  it("refuses private and local addresses where private networking is not allowed (the SSRF guard)", async () => {
    // Tests allow private networks (the servers are on 127.0.0.1); a production deployment does not.
    const ns = env.MCP_REGISTRY as DurableObjectNamespace<McpRegistry>;
    const results = await runInDurableObject(
      ns.get(ns.idFromName("ssrf-check")),
      async (obj: McpRegistry) => {
        Object.assign(obj, { env: { ...env, ALLOW_PRIVATE_NETWORK: "false" } });
        const out = [];
        for (const url of [
          "http://127.0.0.1:9/mcp",
          "http://10.0.0.7/mcp",
          "http://[::1]/mcp",
          "http://metadata.google.internal/mcp",
        ]) {
          out.push(await obj.create({ name: "internal", url }));
        }
        return out;
      },
    );
    for (const r of results) expect(r).toMatchObject({ ok: false, status: 400, code: "invalid_url" });
    expect((results[0] as { message: string }).message).toBe(
      "Refused to fetch http://127.0.0.1:9/mcp: it points to a private or local address (127.0.0.1).",
    );
  });

  it("changes, refreshes and removes a server", async () => {
    const server = await addServer({ name: "temp", url: mcpUrls().everything });
    const patched = await api(`/v1/mcp/servers/${server.id}`, {
      method: "PATCH",
      json: { allowed_tools: ["echo"] },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as McpServerView).allowed_tools).toEqual(["echo"]);
    const refreshed = await api(`/v1/mcp/servers/${server.id}/refresh`, { method: "POST" });
    expect(((await refreshed.json()) as McpServerView).status).toBe("connected");
    expect((await api(`/v1/mcp/servers/${server.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/v1/mcp/servers/${server.id}`)).status).toBe(404);
    expect((await api(`/v1/mcp/servers/${server.id}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("MCP tools in a conversation", () => {
  it("offers <server>__<tool> names with adapted schemas, resolving collisions deterministically", async () => {
    const key = uniqueKey("mcp-names");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key, { mcp_servers: ["crm"] });
    await send(id, "hi");
    const names = await offeredTools(key);
    const mine = names.filter((n) => n.startsWith("crm__")).sort();
    expect(mine).toContain("crm__lookup");
    expect(mine).toContain("crm__get_item");
    // "get.item" sorts before "get_item": it keeps the plain name, the other gets a hash.
    expect(mine.filter((n) => /^crm__get_item_[0-9a-f]{8}$/.test(n))).toHaveLength(1);
    const long = mine.find((n) => n.startsWith("crm__a_tool_with"))!;
    expect(long).toHaveLength(64);
    expect(long).toMatch(/_[0-9a-f]{8}$/);
    expect(names.some((n) => n.startsWith("everything__"))).toBe(false);
    const spec = await offeredSpec(key, "crm__get_item");
    expect(spec.description).toContain('MCP tool "get.item" of server crm');
    expect(spec.parameters).toMatchObject({
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } } },
    });
    expect(JSON.stringify(spec.parameters)).not.toContain("$schema");
  });

  it("calls a tool: text joined, structuredContent as JSON; isError is a tool error the model reads", async () => {
    const key = uniqueKey("mcp-call");
    await script(key, [
      {
        tool_calls: [
          { id: "a", name: "crm__lookup", arguments: { id: "A1" } },
          { id: "b", name: "crm__fail", arguments: {} },
          { id: "c", name: "crm__lookup", arguments: { id: 7 } },
        ],
      },
      { text: "done" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["crm"] });
    expect(await (await send(id, "look it up")).json()).toMatchObject({
      status: "succeeded",
      output: "done",
    });
    const results = await toolResultsById(key);
    expect(JSON.parse(results.get("a")!)).toEqual({
      text: "order A1 is shipped",
      structured_content: { id: "A1", status: "shipped" },
    });
    expect(JSON.parse(results.get("b")!)).toEqual({
      ok: false,
      error: { code: "mcp_tool_error", message: "crm__fail reported an error: the warehouse is closed" },
    });
    expect(JSON.parse(results.get("c")!).error.code).toBe("invalid_arguments");
    const log = await serverLog("bearer");
    expect(log.calls.filter((c) => c.tool === "lookup").map((c) => c.args)).toContainEqual({ id: "A1" });
    // The credential reached the server but never the model or the event log.
    expect(log.headers.some((h) => h.authorization === `Bearer ${MCP_TEST_TOKEN}`)).toBe(true);
    expect(JSON.stringify(await modelRequests(key))).not.toContain(MCP_TEST_TOKEN);
    const events = new SseReader(
      (await api(`/v1/conversations/${id}/events?after=0`, { headers: { accept: "text/event-stream" } }))
        .body!,
    );
    await events.untilText(": heartbeat"); // the whole replay comes before the first heartbeat
    await events.close();
    expect(events.text).toContain("TOOL_CALL_RESULT");
    expect(events.text).not.toContain(MCP_TEST_TOKEN);
  });

  it("saves images to the workspace files and reads them back", async () => {
    const key = uniqueKey("mcp-image");
    await script(key, [
      { tool_calls: [{ id: "a", name: "everything__get-tiny-image", arguments: {} }] },
      { text: "seen" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["everything"] });
    expect(await (await send(id, "picture")).json()).toMatchObject({ status: "succeeded" });
    const result = JSON.parse((await toolResultsById(key)).get("a")!) as {
      files: { path: string; mime_type: string; bytes: number }[];
    };
    expect(result.files[0]).toMatchObject({ mime_type: "image/png", kind: "image" });
    const file = await api(`/v1/files/${result.files[0].path}`);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBe(result.files[0].bytes);
  });

  it("refuses mcp_servers naming servers the workspace does not have", async () => {
    const res = await api("/v1/conversations", { method: "POST", json: { mcp_servers: ["nope"] } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_mcp_server");
  });
});
