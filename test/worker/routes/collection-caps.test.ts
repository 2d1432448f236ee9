/**
 * The collections a workspace or a conversation grows through the API are capped, inside the
 * Durable Object that owns them (so concurrent requests cannot pass the cap): one more answers 409
 * with a specific code and says what to do; replacing an entry of the same name always passes;
 * after a delete there is room again. Each test fills a fresh workspace (or conversation).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mcpRegistryStub } from "../../../durable-objects/addresses/mcp-registry";
import { MAX_CONVERSATION_HTTP_TOOLS } from "../../../durable-objects/conversation/conversation-meta";
import type { McpRegistry } from "../../../durable-objects/mcp-registry/mcp-registry-object";
import { MAX_MCP_SERVERS, ServerStore } from "../../../durable-objects/mcp-registry/server-store";
import { MAX_HTTP_TOOLS } from "../../../durable-objects/workspace/workspace-http-tools";
import { MAX_KEYS } from "../../../durable-objects/workspace/workspace-keys";
import { MAX_SECRETS } from "../../../durable-objects/workspace/workspace-secrets";
import { api, createConversation, newWorkspaceKey } from "../helpers";

type Send = (i: number) => Promise<Response>;

/** Sends `count` requests, `batch` at a time; returns their statuses. */
async function sendAll(count: number, send: Send, batch = 25): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    const res = await Promise.all(Array.from({ length: n }, (_, k) => send(start + k)));
    statuses.push(...res.map((r) => r.status));
  }
  return statuses;
}

/** Expects a 409 with this code whose message states the limit and says to delete one. */
async function expectRefused(res: Response, code: string, limit: number): Promise<void> {
  expect(res.status).toBe(409);
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe(code);
  expect(error.message).toContain(`at most ${limit}`);
  expect(error.message).toMatch(/(delete|revoke) one/);
}

const tool = (name: string, description = "Looks up a price.") => ({
  name,
  description,
  url: "https://tools.example/price",
});

describe("workspace HTTP tools", () => {
  it(`stop at ${MAX_HTTP_TOOLS}: one more is 409 too_many_tools, a replacement passes, a delete makes room`, async () => {
    const { key: token } = await newWorkspaceKey("caps-tools");
    const add = (name: string, description?: string) =>
      api("/v1/tools", { method: "POST", json: tool(name, description), token });
    const filled = await sendAll(MAX_HTTP_TOOLS, (i) => add(`t_${i}`));
    expect(filled.every((s) => s === 201)).toBe(true);

    await expectRefused(await add("one_more"), "too_many_tools", MAX_HTTP_TOOLS);
    expect((await add("t_7", "Replaced.")).status).toBe(201);
    const patched = await api("/v1/tools/t_8", { method: "PATCH", json: { description: "Changed." }, token });
    expect(patched.status).toBe(200);
    const list = (await (await api("/v1/tools", { token })).json()) as {
      data: { name: string; description: string }[];
    };
    expect(list.data).toHaveLength(MAX_HTTP_TOOLS);
    expect(list.data.find((t) => t.name === "t_7")?.description).toBe("Replaced.");

    expect((await api("/v1/tools/t_0", { method: "DELETE", token })).status).toBe(200);
    expect((await add("one_more")).status).toBe(201);
    await expectRefused(await add("two_more"), "too_many_tools", MAX_HTTP_TOOLS);
  });
});

describe("a conversation's own HTTP tools", () => {
  it(`stop at ${MAX_CONVERSATION_HTTP_TOOLS}: one more is 409 too_many_tools, a replacement passes, a delete makes room`, async () => {
    const { key: token } = await newWorkspaceKey("caps-conversation-tools");
    const id = await createConversation("echo", {}, token);
    const add = (name: string, description?: string) =>
      api(`/v1/conversations/${id}/http-tools`, { method: "POST", json: tool(name, description), token });
    const filled = await sendAll(MAX_CONVERSATION_HTTP_TOOLS, (i) => add(`t_${i}`));
    expect(filled.every((s) => s === 201)).toBe(true);

    const refused = await add("one_more");
    await expectRefused(refused, "too_many_tools", MAX_CONVERSATION_HTTP_TOOLS);
    expect((await add("t_3", "Replaced.")).status).toBe(201);
    const list = (await (await api(`/v1/conversations/${id}/http-tools`, { token })).json()) as {
      data: { name: string; description: string }[];
    };
    expect(list.data).toHaveLength(MAX_CONVERSATION_HTTP_TOOLS);
    expect(list.data.find((t) => t.name === "t_3")?.description).toBe("Replaced.");

    expect((await api(`/v1/conversations/${id}/http-tools/t_0`, { method: "DELETE", token })).status).toBe(
      200,
    );
    expect((await add("one_more")).status).toBe(201);
    await expectRefused(await add("two_more"), "too_many_tools", MAX_CONVERSATION_HTTP_TOOLS);
  });
});

describe("MCP servers", () => {
  it(`stop at ${MAX_MCP_SERVERS}: one more is 409 too_many_mcp_servers, a change passes, a delete makes room`, async () => {
    const { id: ws, key: token } = await newWorkspaceKey("caps-mcp");
    // Filled in the registry's storage: registering over HTTP connects to each server.
    await runInDurableObject(mcpRegistryStub(env, ws), async (_r: McpRegistry, state) => {
      const store = new ServerStore(state.storage.sql);
      for (let i = 0; i < MAX_MCP_SERVERS; i++) {
        store.put({
          ...{ id: `mcp_fill${i}`, name: `s_${i}`, url: "http://127.0.0.1:9/mcp", headers: null },
          ...{ header_names: [], allowed_tools: null, status: "error", error: null, tools: null },
          ...{ oauth: null, approval: null, created_at: i, updated_at: i },
        });
      }
    });
    const add = (name: string) =>
      api("/v1/mcp/servers", { method: "POST", json: { name, url: "http://127.0.0.1:9/mcp" }, token });

    await expectRefused(await add("one_more"), "too_many_mcp_servers", MAX_MCP_SERVERS);
    expect(((await (await add("s_1")).json()) as { error: { code: string } }).error.code).toBe("name_taken");
    const renamed = await api("/v1/mcp/servers/mcp_fill2", {
      method: "PATCH",
      json: { name: "renamed" },
      token,
    });
    expect(renamed.status).toBe(200);
    const list = (await (await api("/v1/mcp/servers", { token })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(MAX_MCP_SERVERS);

    expect((await api("/v1/mcp/servers/mcp_fill0", { method: "DELETE", token })).status).toBe(200);
    expect((await add("one_more")).status).toBe(201);
    await expectRefused(await add("two_more"), "too_many_mcp_servers", MAX_MCP_SERVERS);
  });
});

describe("keys", () => {
  it(`stop at ${MAX_KEYS} through both routes: one more is 409 too_many_keys, a rename passes, a revoke makes room`, async () => {
    const { id: ws, key: token } = await newWorkspaceKey("caps-keys"); // its first key
    const own = () => api("/v1/keys", { method: "POST", json: { name: "k" }, token });
    const admin = () => api(`/v1/workspaces/${ws}/keys`, { method: "POST", json: { name: "k" } });
    const filled = await sendAll(MAX_KEYS - 1, (i) => (i % 2 ? own() : admin()));
    expect(filled.every((s) => s === 201)).toBe(true);

    await expectRefused(await own(), "too_many_keys", MAX_KEYS);
    await expectRefused(await admin(), "too_many_keys", MAX_KEYS);
    const keys = (
      (await (await api("/v1/keys", { token })).json()) as { data: { id: string; prefix: string }[] }
    ).data;
    expect(keys).toHaveLength(MAX_KEYS);
    const other = keys.find((k) => !token.startsWith(k.prefix))!; // not the key this test calls with
    const rename = await api(`/v1/keys/${other.id}`, { method: "PATCH", json: { name: "renamed" }, token });
    expect(rename.status).toBe(200);

    expect((await api(`/v1/keys/${other.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await own()).status).toBe(201);
    await expectRefused(await admin(), "too_many_keys", MAX_KEYS);
  });

  it("hold the cap against concurrent requests (counted in the Durable Object, not the Worker)", async () => {
    const { key: token } = await newWorkspaceKey("caps-keys-race"); // its first key
    const own = () => api("/v1/keys", { method: "POST", json: { name: "k" }, token });
    await sendAll(MAX_KEYS - 4, () => own());
    const raced = await sendAll(10, () => own(), 10);
    expect(raced.filter((s) => s === 201)).toHaveLength(3);
    expect(raced.filter((s) => s === 409)).toHaveLength(7);
  });
});

describe("secrets", () => {
  it(`stop at ${MAX_SECRETS}: one more is 409 too_many_secrets, a replacement passes, a delete makes room`, async () => {
    const { key: token } = await newWorkspaceKey("caps-secrets");
    const put = (name: string, value = "hunter2") =>
      api(`/v1/secrets/${name}`, { method: "PUT", json: { value }, token });
    const filled = await sendAll(MAX_SECRETS, (i) => put(`s_${i}`));
    expect(filled.every((s) => s === 200)).toBe(true);

    await expectRefused(await put("one_more"), "too_many_secrets", MAX_SECRETS);
    expect((await put("s_5", "hunter3")).status).toBe(200);
    const names = (await (await api("/v1/secrets", { token })).json()) as { data: unknown[] };
    expect(names.data).toHaveLength(MAX_SECRETS);

    expect((await api("/v1/secrets/s_0", { method: "DELETE", token })).status).toBe(200);
    expect((await put("one_more")).status).toBe(200);
    await expectRefused(await put("two_more"), "too_many_secrets", MAX_SECRETS);
  });

  it("hold the cap against concurrent requests (counted in the Durable Object, not the Worker)", async () => {
    const { key: token } = await newWorkspaceKey("caps-secrets-race");
    const put = (name: string) => api(`/v1/secrets/${name}`, { method: "PUT", json: { value: "x" }, token });
    await sendAll(MAX_SECRETS - 3, (i) => put(`s_${i}`));
    const raced = await sendAll(10, (i) => put(`race_${i}`), 10);
    expect(raced.filter((s) => s === 200)).toHaveLength(3);
    expect(raced.filter((s) => s === 409)).toHaveLength(7);
  });
});
