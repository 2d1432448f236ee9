import { describe, expect, it } from "vitest";
import { ADMIN, api, createConversation, script, uniqueKey } from "../helpers";

async function newWorkspaceKey(name: string): Promise<{ workspace: string; key: string; keyId: string }> {
  const ws = (await (await api("/v1/workspaces", { method: "POST", json: { name } })).json()) as {
    id: string;
  };
  const res = await api(`/v1/workspaces/${ws.id}/keys`, { method: "POST", json: { name: "ci" } });
  expect(res.status).toBe(201);
  const key = (await res.json()) as { id: string; key: string };
  return { workspace: ws.id, key: key.key, keyId: key.id };
}

describe("authentication", () => {
  it("refuses requests without a key or with a wrong one, in the one error shape", async () => {
    for (const token of [null, "sk_default_wrongwrongwrongwrong", "garbage"]) {
      const res = await api("/v1/conversations", { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: { code: "unauthorized", message: expect.any(String) },
      });
    }
  });

  it("shows a new key once, stores it hashed, and stops accepting it once revoked", async () => {
    const { workspace, key, keyId } = await newWorkspaceKey("acme");
    expect(key).toMatch(new RegExp(`^sk_${workspace}_`));
    expect((await api("/v1/conversations", { token: key })).status).toBe(200);
    const list = (await (await api(`/v1/workspaces/${workspace}/keys`)).json()) as {
      data: Record<string, unknown>[];
    };
    expect(JSON.stringify(list)).not.toContain(key);
    expect(list.data[0]).toMatchObject({ id: keyId, name: "ci" });
    expect((await api(`/v1/workspaces/${workspace}/keys/${keyId}`, { method: "DELETE" })).status).toBe(200);
    expect((await api("/v1/conversations", { token: key })).status).toBe(401);
  });

  it("keeps workspace keys out of admin routes and other workspaces", async () => {
    const a = await newWorkspaceKey("a");
    const b = await newWorkspaceKey("b");
    const forbidden = await api("/v1/workspaces", { method: "POST", json: { name: "x" }, token: a.key });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: { code: "forbidden" } });

    const key = uniqueKey("iso");
    await script(key, [{ text: "secret plans" }]);
    const convA = await createConversation(key, {}, a.key);
    for (const [method, path] of [
      ["GET", `/v1/conversations/${convA}`],
      ["GET", `/v1/conversations/${convA}/events`],
      ["POST", `/v1/conversations/${convA}/cancel`],
      ["DELETE", `/v1/conversations/${convA}`],
    ]) {
      const res = await api(path, { method, token: b.key });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const send = await api(`/v1/conversations/${convA}/messages`, {
      method: "POST",
      json: { content: "hi" },
      token: b.key,
    });
    expect(send.status).toBe(404);
    const listB = (await (await api("/v1/conversations", { token: b.key })).json()) as { data: unknown[] };
    expect(listB.data).toEqual([]);
    const listA = (await (await api("/v1/conversations", { token: a.key })).json()) as {
      data: { id: string }[];
    };
    expect(listA.data.map((c) => c.id)).toEqual([convA]);
    // The admin token acts on the workspace named "default", not on others.
    expect((await api(`/v1/conversations/${convA}`, { token: ADMIN })).status).toBe(404);
  });
});

describe("bad input", () => {
  it("answers 4xx with {error: {code, message}} and never 500", async () => {
    const id = await createConversation("echo");
    const cases: [string, string, RequestInit & { json?: unknown }, number][] = [
      [
        "POST",
        "/v1/conversations",
        { body: "{not json", headers: { "content-type": "application/json" } },
        400,
      ],
      ["POST", "/v1/conversations", { json: { model: 42 } }, 400],
      ["POST", "/v1/conversations", { json: { metadata: { a: { nested: true } } } }, 400],
      ["POST", `/v1/conversations/${id}/messages`, { json: {} }, 400],
      ["POST", `/v1/conversations/${id}/messages`, { json: { content: "" } }, 400],
      [
        "POST",
        `/v1/conversations/${id}/messages`,
        { body: "content=hi", headers: { "content-type": "text/plain" } },
        415,
      ],
      [
        "POST",
        `/v1/conversations/${id}/messages`,
        { body: "[", headers: { "content-type": "application/json" } },
        400,
      ],
      ["POST", `/v1/conversations/${id}/answer`, { json: { question_id: "q", answer: "x" } }, 409],
      ["POST", `/v1/conversations/${id}/answer`, { json: { answer: 5 } }, 400],
      ["GET", "/v1/conversations/conv_doesnotexist", {}, 404],
      ["GET", "/v1/conversations/bad%20id!", {}, 404],
      ["GET", "/v1/conversations?limit=0", {}, 400],
      ["GET", "/v1/conversations?limit=abc", {}, 400],
      ["POST", `/v1/conversations/${id}/tools/no_such_tool`, { json: { arguments: {} } }, 404],
      ["POST", `/v1/conversations/${id}/tools/create_task`, { json: { arguments: { subject: 7 } } }, 400],
      ["POST", `/v1/conversations/${id}/tools/get_task`, { json: { arguments: { task_id: "99" } } }, 404],
      ["POST", `/v1/conversations/${id}/tools/ask_user`, { json: { arguments: { question: "?" } } }, 409],
      ["POST", "/v1/workspaces", { json: { name: "" } }, 400],
      ["POST", "/v1/workspaces/ws-nope/keys", { json: { name: "k" } }, 404],
      ["DELETE", "/v1/workspaces/default/keys/key_nope", {}, 404],
      ["GET", "/v1/nothing-here", {}, 404],
      ["POST", "/v1/agui", { json: { threadId: "t1" } }, 400],
    ];
    for (const [method, path, init, status] of cases) {
      const res = await api(path, { method, ...init });
      expect(res.status, `${method} ${path}`).toBe(status);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(Object.keys(body), `${method} ${path}`).toEqual(["error"]);
      expect(body.error.code).toMatch(/^[a-z_]+$/);
      expect(body.error.message.length).toBeGreaterThan(3);
    }
  });
});

describe("the direct tool route", () => {
  it("runs a tool with the same validation as a model call and returns its result", async () => {
    const id = await createConversation("echo");
    const created = await api(`/v1/conversations/${id}/tools/create_task`, {
      method: "POST",
      json: { arguments: { subject: "Write report" } },
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({
      tool: "create_task",
      result: { id: "1", subject: "Write report", status: "pending" },
    });
    const updated = await api(`/v1/conversations/${id}/tools/update_task`, {
      method: "POST",
      json: { arguments: { task_id: "1", status: "in_progress" } },
    });
    expect(await updated.json()).toMatchObject({ result: { status: "in_progress" } });
    const bad = await api(`/v1/conversations/${id}/tools/update_task`, {
      method: "POST",
      json: { arguments: { task_id: "1", status: "done" } },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("status");
    const list = await api(`/v1/conversations/${id}/tools/list_tasks`, { method: "POST" });
    expect(await list.json()).toMatchObject({
      result: [{ id: "1", subject: "Write report", status: "in_progress" }],
    });
    const del = await api(`/v1/conversations/${id}/tools/delete_task`, {
      method: "POST",
      json: { arguments: { task_id: "1" } },
    });
    expect(await del.json()).toMatchObject({ result: { deleted: true, task_id: "1" } });
  });
});

describe("the API reference", () => {
  it("serves an OpenAPI 3.1 document generated from the schemas and a readable page", async () => {
    const doc = (await (await api("/openapi.json", { token: null })).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe("3.1.0");
    for (const path of [
      "/v1/conversations",
      "/v1/conversations/{id}/messages",
      "/v1/conversations/{id}/events",
      "/v1/agui",
      "/v1/workspaces/{id}/keys",
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    const page = await api("/docs", { token: null });
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("/v1/conversations/{id}/answer");
    expect(html).not.toContain("<script");
  });
});
