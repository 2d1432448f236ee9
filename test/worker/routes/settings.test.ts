import { describe, expect, it } from "vitest";
import { api, newWorkspaceKey } from "../helpers";

const put = (search: Record<string, unknown>, token?: string) =>
  api("/v1/settings", { method: "PUT", json: { search }, token });

describe("workspace settings", () => {
  it("start with DuckDuckGo and no keys", async () => {
    const res = await api("/v1/settings");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      search: {
        engine: "duckduckgo",
        base_urls: {},
        searxng_url: null,
        google_cse_id: null,
        bing_api_key: { set: false },
        google_api_key: { set: false },
        brave_api_key: { set: false },
      },
      agent: { model: null, instructions: null, allowed_tools: null, timezone: null },
      widget: { title: null, greeting: null, color: null, language: null, position: null, tools: null },
      allowed_domains: null,
      model_vision: "auto",
      approvals: {},
      model_prices: {},
      daily_budget_usd: null,
    });
  });

  it("store an engine with its key and never show the key again", async () => {
    const res = await put({ engine: "brave", brave_api_key: "BSA-secret-123" });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("BSA-secret-123");
    expect(JSON.parse(text).search).toMatchObject({ engine: "brave", brave_api_key: { set: true } });
    const again = await (await api("/v1/settings")).text();
    expect(again).not.toContain("BSA-secret-123");
    expect(JSON.parse(again).search).toMatchObject({
      engine: "brave",
      brave_api_key: { set: true },
      bing_api_key: { set: false },
    });
  });

  it("refuse an engine chosen without its key, keeping the previous settings", async () => {
    await put({ engine: "duckduckgo" });
    const res = await put({ engine: "google", google_api_key: "g-key" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "invalid_settings",
        message:
          "The google engine needs google_cse_id (the Custom Search engine id); set it in the same request.",
      },
    });
    const bing = await put({ engine: "bing" });
    expect(((await bing.json()) as { error: { message: string } }).error.message).toContain("bing_api_key");
    expect(((await (await api("/v1/settings")).json()) as { search: { engine: string } }).search.engine).toBe(
      "duckduckgo",
    );
  });

  it("refuse clearing the key of the engine in use", async () => {
    await put({ engine: "brave", brave_api_key: "BSA-secret-123" });
    const res = await put({ brave_api_key: null });
    expect(res.status).toBe(400);
    await put({ engine: "duckduckgo", brave_api_key: null });
    expect(
      ((await (await api("/v1/settings")).json()) as { search: { brave_api_key: unknown } }).search
        .brave_api_key,
    ).toEqual({ set: false });
  });

  it("validate fields: unknown engines, unknown fields and non-http URLs are 400s", async () => {
    for (const search of [
      { engine: "altavista" },
      { engine: "searxng", searxng_url: "file:///etc" },
      { bogus: 1 },
      { base_urls: { bing: "not a url" } },
      { base_urls: { altavista: "https://a.example" } },
    ]) {
      const res = await put(search);
      expect(res.status, JSON.stringify(search)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toMatch(/^invalid_/);
    }
  });

  it("keep a base URL per engine, so switching engines does not send one engine's requests to another's host", async () => {
    const res = await put({
      engine: "duckduckgo",
      base_urls: { duckduckgo: "https://ddg-proxy.example/", bing: "https://bing-proxy.example/" },
    });
    expect(((await res.json()) as { search: { base_urls: unknown } }).search.base_urls).toEqual({
      duckduckgo: "https://ddg-proxy.example/",
      bing: "https://bing-proxy.example/",
    });
    await put({ base_urls: {} });
  });

  it("belong to one workspace: another workspace sees its own defaults", async () => {
    await put({ engine: "brave", brave_api_key: "BSA-secret-123" });
    const { key: token } = await newWorkspaceKey("other");
    const other = (await (await api("/v1/settings", { token })).json()) as {
      search: Record<string, unknown>;
    };
    expect(other.search).toMatchObject({ engine: "duckduckgo", brave_api_key: { set: false } });
    await put({ engine: "searxng", searxng_url: "https://searx.example.org" }, token);
    const mine = (await (await api("/v1/settings")).json()) as { search: Record<string, unknown> };
    expect(mine.search).toMatchObject({ engine: "brave", searxng_url: null });
  });

  it("need an API key", async () => {
    expect((await api("/v1/settings", { token: null })).status).toBe(401);
    expect((await put({ engine: "duckduckgo" }, "sk_nobody_aaaaaaaaaaaaaaaaaaaaaaaa")).status).toBe(401);
  });
});

describe("the API document", () => {
  it("describes GET and PUT /v1/settings", async () => {
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const path = doc.paths["/v1/settings"];
    expect(Object.keys(path).sort()).toEqual(["get", "put"]);
  });
});
