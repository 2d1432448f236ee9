import { describe, expect, inject, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../helpers";

const pageUrl = () => inject("pageUrl");
const configure = (name: string, config: Record<string, unknown>) =>
  fetch(`${pageUrl()}/receiver/${name}/config`, { method: "POST", body: JSON.stringify(config) });
const receiverLog = async (name: string) =>
  (
    (await (await fetch(`${pageUrl()}/receiver/${name}/log`)).json()) as {
      requests: { valid: boolean; body: unknown; headers: Record<string, string> }[];
    }
  ).requests;
/** The tool results the model saw last, in the order of the calls (results land as they finish). */
const toolResults = async (key: string) => {
  const last = (await modelRequests(key)).at(-1)!.messages as {
    role: string;
    content: unknown;
    tool_call_id?: string;
    tool_calls?: { id: string }[];
  }[];
  const order = last.findLast((m) => m.role === "assistant")!.tool_calls!.map((c) => c.id);
  const byId = new Map(last.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, String(m.content)]));
  return order.map((id) => byId.get(id)!);
};

describe("custom tools deployed with Cirrus", () => {
  it("are offered to the model next to the built-ins and return every kind of result", async () => {
    const key = uniqueKey("custom");
    await script(key, [
      {
        tool_calls: [
          { id: "a", name: "get_price", arguments: { sku: "ABC-123" } },
          { id: "b", name: "shout", arguments: { text: "hi" } },
          { id: "c", name: "order_status", arguments: { order_id: "missing" } },
          { id: "d", name: "crm_client", arguments: {} },
          { id: "e", name: "get_price", arguments: { sku: "abc" } },
          { id: "f", name: "get_price", arguments: { sku: "ERR-500" } },
          { id: "g", name: "shout", arguments: { text: "my password is <secret>bank</secret>" } },
        ],
      },
      { text: "done" },
    ]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "go", stream: false },
    });
    expect(await res.json()).toMatchObject({ status: "succeeded", output: "done" });
    const first = (await modelRequests(key))[0];
    const names = ((first.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["get_price", "shout", "create_task", "finish"]));
    const results = await toolResults(key);
    expect(JSON.parse(results[0])).toEqual({ sku: "ABC-123", price: 19.99, currency: "EUR" });
    expect(results[1]).toBe("HI");
    expect(JSON.parse(results[2]).error).toMatchObject({
      code: "tool_error",
      message: "Order missing does not exist.",
    });
    expect(results[3]).toBe("<CrmClient connected to crm.internal>");
    expect(JSON.parse(results[4]).error).toMatchObject({ code: "retry_requested" });
    expect(JSON.parse(results[5]).error.message).toContain("price database unavailable");
    expect(JSON.parse(results[6]).error).toMatchObject({ code: "secret_placeholder" });
  });
});

describe("HTTP tools registered through the API", () => {
  it("POST signed arguments to the receiver and return its answer, per workspace and per conversation", async () => {
    const reg = await api("/v1/tools", {
      method: "POST",
      json: {
        name: "crm_lookup",
        description: "Look a customer up in the CRM.",
        parameters: { type: "object", required: ["email"], properties: { email: { type: "string" } } },
        url: `${pageUrl()}/receiver/crm`,
        headers: { "x-api-key": "crm-key-123" },
      },
    });
    expect(reg.status).toBe(201);
    const created = (await reg.json()) as { secret: string; header_names: string[] };
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.header_names).toEqual(["x-api-key"]);
    const listed = await (await api("/v1/tools")).text();
    expect(listed).not.toContain(created.secret);
    expect(listed).not.toContain("crm-key-123");
    await configure("crm", { secret: created.secret, body: { name: "Ada", plan: "pro" } });

    const key = uniqueKey("http");
    await script(key, [
      {
        tool_calls: [
          { name: "crm_lookup", arguments: { email: "ada@example.com" } },
          { name: "crm_lookup", arguments: { mail: 1 } },
        ],
      },
      { text: "found" },
    ]);
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "who", stream: false },
    });
    const log = await receiverLog("crm");
    expect(log).toHaveLength(1); // the invalid call never left Cirrus
    expect(log[0]).toMatchObject({ valid: true, body: { email: "ada@example.com" } });
    expect(log[0].headers["x-api-key"]).toBe("crm-key-123");
    const results = await toolResults(key);
    expect(JSON.parse(results[0])).toEqual({ name: "Ada", plan: "pro" });
    expect(JSON.parse(results[1]).error.code).toBe("invalid_arguments");
  });

  it("report timeouts and non-2xx answers to the model as errors", async () => {
    const id = await createConversation("echo");
    const slow = (await (
      await api(`/v1/conversations/${id}/http-tools`, {
        method: "POST",
        json: { name: "slow_tool", description: "Slow.", url: `${pageUrl()}/receiver/slow`, timeout_ms: 300 },
      })
    ).json()) as { secret: string };
    await configure("slow", { secret: slow.secret, delayMs: 2000 });
    const failing = (await (
      await api(`/v1/conversations/${id}/http-tools`, {
        method: "POST",
        json: { name: "failing_tool", description: "Fails.", url: `${pageUrl()}/receiver/failing` },
      })
    ).json()) as { secret: string };
    await configure("failing", { secret: failing.secret, status: 502, body: { error: "upstream down" } });

    const t1 = await api(`/v1/conversations/${id}/tools/slow_tool`, {
      method: "POST",
      json: { arguments: {} },
    });
    expect(t1.status).toBe(422);
    expect(await t1.json()).toMatchObject({ error: { code: "timeout" } });
    const t2 = await api(`/v1/conversations/${id}/tools/failing_tool`, {
      method: "POST",
      json: { arguments: {} },
    });
    expect(await t2.json()).toMatchObject({
      error: { code: "http_tool_error", message: expect.stringContaining("502") },
    });
    const list = (await (await api(`/v1/conversations/${id}/http-tools`)).json()) as {
      data: { name: string }[];
    };
    expect(list.data.map((t) => t.name).sort()).toEqual(["failing_tool", "slow_tool"]);
    expect((await api(`/v1/conversations/${id}/http-tools/slow_tool`, { method: "DELETE" })).status).toBe(
      200,
    );
  });

  it("refuse taken names and bad specs", async () => {
    for (const [body, status] of [
      [{ name: "finish", description: "x", url: "https://example.com" }, 400],
      [{ name: "web_fetch", description: "x", url: "https://example.com" }, 400],
      [{ name: "get_price", description: "x", url: "https://example.com" }, 400],
      [{ name: "ok_name", description: "x", url: "ftp://example.com" }, 400],
      [{ name: "bad name", description: "x", url: "https://example.com" }, 400],
    ] as const) {
      const res = await api("/v1/tools", { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
  });
});
