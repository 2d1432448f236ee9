import { describe, expect, it } from "vitest";
import { api, modelRequests, script, uniqueKey } from "../helpers";

const SHOP = "https://shop.example";

/** A fresh workspace with a secret key and a publishable key for SHOP. */
async function workspace(): Promise<{ sk: string; pk: string }> {
  const ws = (await (await api("/v1/workspaces", { method: "POST", json: { name: "agent" } })).json()) as {
    id: string;
  };
  const key = async (json: unknown) =>
    ((await (await api(`/v1/workspaces/${ws.id}/keys`, { method: "POST", json })).json()) as { key: string })
      .key;
  return {
    sk: await key({ name: "server" }),
    pk: await key({ name: "site", type: "publishable", allowed_origins: [SHOP] }),
  };
}

const putSettings = (token: string, json: unknown) => api("/v1/settings", { method: "PUT", json, token });

async function ask(token: string, body: Record<string, unknown> = {}) {
  const conv = await api("/v1/conversations", { method: "POST", json: body, token });
  expect(conv.status).toBe(201);
  const created = (await conv.json()) as { id: string; model: string; instructions: string | null };
  const res = await api(`/v1/conversations/${created.id}/messages`, {
    method: "POST",
    json: { content: "hello", stream: false },
    token,
  });
  expect(await res.json()).toMatchObject({ status: "succeeded" });
  return created;
}

describe("agent settings", () => {
  it("give new conversations the workspace's model, instructions and tools", async () => {
    const { sk } = await workspace();
    const model = uniqueKey("agent-defaults");
    await script(model, [{ text: "Arr." }]);
    const res = await putSettings(sk, {
      agent: { model, instructions: "Answer like a pirate.", allowed_tools: ["create_task", "web_fetch"] },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { agent: unknown }).agent).toEqual({
      model,
      instructions: "Answer like a pirate.",
      allowed_tools: ["create_task", "web_fetch"],
      timezone: null,
    });

    const conv = await ask(sk);
    expect(conv).toMatchObject({ model, instructions: "Answer like a pirate." });
    const [request] = await modelRequests(model);
    expect(request.messages[0]).toMatchObject({ role: "system" });
    expect(String(request.messages[0].content)).toContain("Answer like a pirate.");
    const names = ((request.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names.sort()).toEqual(["create_task", "finish", "web_fetch"]);
  });

  it("let a conversation's own model and instructions win, and null restore the defaults", async () => {
    const { sk } = await workspace();
    const own = uniqueKey("agent-own");
    await script(own, [{ text: "ok" }]);
    await putSettings(sk, { agent: { model: "not-this-one", instructions: "Workspace rules." } });
    const conv = await ask(sk, { model: own, instructions: "My rules." });
    expect(conv).toMatchObject({ model: own, instructions: "My rules." });
    expect(String((await modelRequests(own))[0].messages[0].content)).not.toContain("Workspace rules.");

    const cleared = await putSettings(sk, { agent: { model: null, instructions: null } });
    expect(((await cleared.json()) as { agent: unknown }).agent).toEqual({
      model: null,
      instructions: null,
      allowed_tools: null,
      timezone: null,
    });
    const plain = (await (
      await api("/v1/conversations", { method: "POST", json: {}, token: sk })
    ).json()) as {
      model: string;
      instructions: string | null;
    };
    expect(plain).toMatchObject({ model: "echo", instructions: null });
  });

  it("refuse bad values with a clear 400 and keep the old settings", async () => {
    const { sk } = await workspace();
    await putSettings(sk, { widget: { title: "Help" } });
    for (const [json, words] of [
      [{ agent: { allowed_tools: ["bad name!"] } }, "tool names"],
      [{ widget: { color: "url(javascript:alert(1))" } }, "CSS colour"],
      [{ widget: { position: "middle" } }, "position"],
      [{ agent: { temperature: 2 } }, "temperature"],
    ] as const) {
      const res = await putSettings(sk, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(words);
    }
    const after = (await (await api("/v1/settings", { token: sk })).json()) as { widget: { title: string } };
    expect(after.widget.title).toBe("Help");
  });
});

describe("widget settings", () => {
  it("reach the widget through its publishable key, from allowed origins only", async () => {
    const { sk, pk } = await workspace();
    const widget = {
      title: "Shop help",
      greeting: "Hi! Ask me anything.",
      color: "#0b5fff",
      language: "es",
      position: "left",
    };
    expect((await putSettings(sk, { widget })).status).toBe(200);
    const res = await api("/v1/widget/config", { token: pk, headers: { origin: SHOP } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(await res.json()).toEqual(widget);

    const evil = await api("/v1/widget/config", { token: pk, headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect((await api("/v1/widget/config", { token: sk })).status).toBe(403);
    // A publishable key still cannot read or change the settings themselves.
    expect((await api("/v1/settings", { token: pk, headers: { origin: SHOP } })).status).toBe(403);
  });
});

describe("the agent's own system prompt", () => {
  it("tells the model the date in UTC and in the workspace's time zone, in a note before the run's message, after the stable prompt", async () => {
    const { sk } = await workspace();
    const bad = await putSettings(sk, { agent: { timezone: "Mars/Olympus_Mons" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const good = await putSettings(sk, { agent: { timezone: "Asia/Tokyo" } });
    expect(good.status).toBe(200);
    expect(((await good.json()) as { agent: { timezone: string } }).agent.timezone).toBe("Asia/Tokyo");

    const model = uniqueKey("prompt-date");
    await script(model, [{ text: "ok" }]);
    const before = new Date();
    await ask(sk, { model, instructions: "Answer in haiku." });
    const [request] = await modelRequests(model);
    const system = String(request.messages[0].content);
    expect(system).toContain("Cite the URLs");
    expect(system).toContain("Answer in haiku.");
    expect(system).not.toContain("Now:");
    const note = request.messages[1];
    expect(note.role).toBe("system");
    expect(String(note.content)).toContain(`Now: ${before.toISOString().slice(0, 10)}`);
    expect(String(note.content)).toContain("UTC");
    expect(String(note.content)).toContain("Asia/Tokyo");
    expect(request.messages[2]).toMatchObject({ role: "user" });
  });
});
