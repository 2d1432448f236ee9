import { describe, expect, it } from "vitest";
import { api, readSse, script, uniqueKey, untilRunEnd } from "../helpers";

const SHOP = "https://shop.example";
const EVIL = "https://evil.example";

/** Creates a workspace (admin) with a secret key and a publishable key for SHOP. */
async function workspaceWithKeys(): Promise<{ ws: string; sk: string; pk: string; pkId: string }> {
  const ws = (await (await api("/v1/workspaces", { method: "POST", json: { name: "w" } })).json()) as {
    id: string;
  };
  const sk = (await (
    await api(`/v1/workspaces/${ws.id}/keys`, { method: "POST", json: { name: "server" } })
  ).json()) as { key: string };
  const res = await api(`/v1/workspaces/${ws.id}/keys`, {
    method: "POST",
    json: { name: "site", type: "publishable", allowed_origins: [SHOP] },
  });
  expect(res.status).toBe(201);
  const pk = (await res.json()) as { key: string; id: string; type: string };
  expect(pk.key).toMatch(/^pk_ws-/);
  expect(pk.type).toBe("publishable");
  return { ws: ws.id, sk: sk.key, pk: pk.key, pkId: pk.id };
}

/** A widget request: publishable key, page origin and (optionally) the visitor token. */
function widget(
  path: string,
  pk: string,
  origin: string | null,
  visitor?: string,
  init: RequestInit & { json?: unknown } = {},
) {
  const headers = new Headers(init.headers);
  if (origin) headers.set("origin", origin);
  if (visitor) headers.set("x-visitor-token", visitor);
  return api(path, { ...init, headers, token: pk });
}

async function session(pk: string): Promise<{ conversation_id: string; visitor_token: string }> {
  const res = await widget("/v1/widget/session", pk, SHOP, undefined, { method: "POST" });
  expect(res.status).toBe(201);
  expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
  return (await res.json()) as never;
}

describe("publishable keys and widget visitors", () => {
  it("opens a visitor session from an allowed origin and refuses other origins", async () => {
    const { pk } = await workspaceWithKeys();
    const s = await session(pk);
    expect(s.conversation_id).toMatch(/^conv_/);
    expect(s.visitor_token).toMatch(/^vt_/);

    const evil = await widget("/v1/widget/session", pk, EVIL, undefined, { method: "POST" });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    expect(((await evil.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const none = await widget("/v1/widget/session", pk, null, undefined, { method: "POST" });
    expect(none.status).toBe(403);
  });

  it("answers CORS preflights for registered origins only", async () => {
    await workspaceWithKeys();
    const preflight = (origin: string) =>
      api("/v1/widget/session", {
        method: "OPTIONS",
        token: null,
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, x-visitor-token",
        },
      });
    const ok = await preflight(SHOP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-headers")).toContain("x-visitor-token");
    const bad = await preflight(EVIL);
    expect(bad.status).toBe(403);
    expect(bad.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a visitor chat on its own conversation and nothing else", async () => {
    const { pk } = await workspaceWithKeys();
    const a = await session(pk);
    const b = await session(pk);
    // Visitor conversations use the default model, the scripted `echo`.
    const send = await widget(`/v1/conversations/${a.conversation_id}/messages`, pk, SHOP, a.visitor_token, {
      method: "POST",
      json: { content: "hi" },
    });
    expect(send.status).toBe(200);
    expect(send.headers.get("access-control-allow-origin")).toBe(SHOP);
    const events = await readSse(send, untilRunEnd);
    expect(events.at(-1)?.data).toMatchObject({ type: "RUN_FINISHED", result: "echo: hi" });
    const replay = await widget(
      `/v1/conversations/${a.conversation_id}/events?after=0`,
      pk,
      SHOP,
      a.visitor_token,
    );
    expect(replay.status).toBe(200);
    const replayed = await readSse(replay, (m) => m.id === events.at(-1)?.id);
    expect(replayed.map((m) => m.id)).toEqual(events.map((m) => m.id));

    const other = await widget(`/v1/conversations/${b.conversation_id}/events`, pk, SHOP, a.visitor_token);
    expect(other.status).toBe(403);
    for (const path of [
      "/v1/conversations",
      "/v1/keys",
      "/v1/settings",
      "/v1/files",
      "/v1/jobs",
      "/v1/workspaces",
    ]) {
      const res = await widget(path, pk, SHOP, a.visitor_token);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
    const read = await widget(`/v1/conversations/${a.conversation_id}`, pk, SHOP, a.visitor_token);
    expect(read.status).toBe(403);
    const noVisitor = await widget(`/v1/conversations/${a.conversation_id}/events`, pk, SHOP);
    expect(noVisitor.status).toBe(403);
    const forged = await widget(
      `/v1/conversations/${a.conversation_id}/events`,
      pk,
      SHOP,
      "vt_forgedforgedforged",
    );
    expect(forged.status).toBe(401);
  });

  it("rate limits a visitor with 429 and Retry-After", async () => {
    const { pk } = await workspaceWithKeys();
    const s = await session(pk);
    let limited: Response | null = null;
    for (let i = 0; i < 80 && !limited; i++) {
      const res = await widget(`/v1/conversations/${s.conversation_id}/cancel`, pk, SHOP, s.visitor_token, {
        method: "POST",
      });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited!.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(((await limited!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("lets a workspace's secret key manage its own keys and origins", async () => {
    const { sk, pk, pkId } = await workspaceWithKeys();
    const list = (await (await api("/v1/keys", { token: sk })).json()) as {
      data: { id: string; type: string; allowed_origins: string[] }[];
    };
    expect(list.data.map((k) => k.type).sort()).toEqual(["publishable", "secret"]);
    expect(JSON.stringify(list)).not.toContain(pk);

    const patched = await api(`/v1/keys/${pkId}`, {
      method: "PATCH",
      token: sk,
      json: { allowed_origins: [EVIL] },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { allowed_origins: string[] }).allowed_origins).toEqual([EVIL]);
    expect((await widget("/v1/widget/session", pk, SHOP, undefined, { method: "POST" })).status).toBe(403);
    expect((await widget("/v1/widget/session", pk, EVIL, undefined, { method: "POST" })).status).toBe(201);

    const bad = await api("/v1/keys", {
      method: "POST",
      token: sk,
      json: { name: "x", type: "publishable", allowed_origins: ["javascript:alert(1)"] },
    });
    expect(bad.status).toBe(400);
    const noOrigins = await api("/v1/keys", {
      method: "POST",
      token: sk,
      json: { name: "x", type: "publishable" },
    });
    expect(noOrigins.status).toBe(400);

    expect((await api(`/v1/keys/${pkId}`, { method: "DELETE", token: sk })).status).toBe(200);
    expect((await widget("/v1/widget/session", pk, EVIL, undefined, { method: "POST" })).status).toBe(401);
    const created = await api("/v1/keys", { method: "POST", token: sk, json: { name: "second" } });
    const second = (await created.json()) as { key: string };
    expect(second.key).toMatch(/^sk_/);
    expect((await api("/v1/conversations", { token: second.key })).status).toBe(200);
  });

  it("lets a visitor download the files the agent wrote for it, and no other workspace file", async () => {
    const { sk, pk } = await workspaceWithKeys();
    const model = uniqueKey("widget-files");
    await script(model, [
      {
        tool_calls: [
          { name: "opfs_write", arguments: { path: "quotes/offer.md", content: "# Your offer\n" } },
        ],
      },
      { text: "Your offer is ready." },
    ]);
    // The owner lets visitors use the file tools (inside each visitor's own folder).
    await api("/v1/settings", {
      method: "PUT",
      token: sk,
      json: { agent: { model }, widget: { tools: ["opfs_*"] } },
    });
    await api("/v1/files/private/payroll.csv", { method: "PUT", token: sk, body: "name,salary\n" });
    const a = await session(pk);
    const b = await session(pk);
    const send = await widget(`/v1/conversations/${a.conversation_id}/messages`, pk, SHOP, a.visitor_token, {
      method: "POST",
      json: { content: "Make me an offer" },
    });
    expect((await readSse(send, untilRunEnd)).at(-1)?.data).toMatchObject({ type: "RUN_FINISHED" });

    const file = (conv: string, path: string, visitor: string) =>
      widget(`/v1/conversations/${conv}/files/${path}`, pk, SHOP, visitor);
    const owned = (await (await api(`/v1/conversations/${a.conversation_id}`, { token: sk })).json()) as {
      metadata: { visitor_id: string };
    };
    const offer = `visitors/${owned.metadata.visitor_id}/quotes/offer.md`;
    const mine = await file(a.conversation_id, offer, a.visitor_token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(await mine.text()).toBe("# Your offer\n");
    expect((await file(a.conversation_id, "private/payroll.csv", a.visitor_token)).status).toBe(404);
    // A ".." hidden from URL normalisation by an encoded "/" is still refused.
    const up = await file(
      a.conversation_id,
      `visitors/${owned.metadata.visitor_id}/quotes%2F..%2F..%2F..%2Fprivate%2Fpayroll.csv`,
      a.visitor_token,
    );
    expect(up.status).toBe(400);
    expect(((await up.json()) as { error: { code: string } }).error.code).toBe("invalid_path");
    expect((await file(a.conversation_id, offer, b.visitor_token)).status).toBe(403);
    expect((await file(b.conversation_id, offer, b.visitor_token)).status).toBe(404);
  });
});
