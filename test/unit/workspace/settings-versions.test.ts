import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTINGS_VERSION } from "../../../durable-objects/workspace/settings-versions";
import { decodeStored } from "../../../durable-objects/workspace/workspace-settings";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/settings/${name}.json`, import.meta.url), "utf8");

const NO_KEYS = { google_cse_id: null, bing_api_key: null, google_api_key: null };

describe("stored workspace settings of older versions", () => {
  it("writes today's rows as version 2", () => {
    expect(SETTINGS_VERSION).toBe(2);
  });

  it("migrates a v1 search row's single base_url to the chosen engine's base_urls entry", () => {
    expect(decodeStored("search", fixture("search-v1-base-url"))).toEqual({
      problem: null,
      value: {
        engine: "bing",
        base_urls: { bing: "http://127.0.0.1:9/bing" },
        searxng_url: null,
        google_cse_id: null,
        bing_api_key: "bing-key-v1",
        google_api_key: null,
        brave_api_key: null,
      },
    });
  });

  it("migrates a v1 SearXNG base_url to searxng_url and keeps the keys", () => {
    expect(decodeStored("search", fixture("search-v1-searxng-base-url"))).toEqual({
      problem: null,
      value: {
        engine: "searxng",
        base_urls: {},
        searxng_url: "https://searx.example.org",
        ...NO_KEYS,
        brave_api_key: "brave-key-v1",
      },
    });
  });

  it("reads a v1 row written after base_urls existed unchanged", () => {
    expect(decodeStored("search", fixture("search-v1-base-urls")).value).toEqual({
      engine: "brave",
      base_urls: { brave: "https://brave-proxy.example" },
      searxng_url: null,
      ...NO_KEYS,
      brave_api_key: "brave-key-v1",
    });
  });

  it("gives a v1 policy row (before approvals) an empty approval map", () => {
    expect(decodeStored("policy", fixture("policy-v1"))).toEqual({
      problem: null,
      value: { allowed_domains: ["example.com", "docs.example.org"], model_vision: true, approvals: {} },
    });
  });

  it("reads v1 agent, widget and cost rows", () => {
    expect(decodeStored("agent", fixture("agent-v1")).value).toEqual({
      model: "gpt-4o",
      instructions: "Answer in French.",
      allowed_tools: ["web_search", "web_fetch"],
      timezone: null,
    });
    expect(decodeStored("widget", fixture("widget-v1")).value).toEqual({
      title: "Shop help",
      greeting: "Bonjour !",
      color: "#0f766e",
      language: "es",
      position: "left",
      // Rows written before the visitors' tool list read as the default list (null).
      tools: null,
    });
    expect(decodeStored("cost", fixture("cost-v1")).value).toEqual({
      model_prices: { "my-model": { input_per_mtok: 1, output_per_mtok: 2 } },
      daily_budget_usd: 5,
    });
  });
});

describe("a stored row that cannot be read whole", () => {
  it("keeps every field that parses (the search keys) and names the one that does not", () => {
    const read = decodeStored("search", fixture("search-v2-one-bad-field"));
    expect(read.value.bing_api_key).toBe("bing-key-kept");
    expect(read.value.engine).toBe("bing");
    expect(read.value.searxng_url).toBeNull();
    expect(read.problem).toContain("searxng_url");
    expect(read.problem).not.toContain("bing-key-kept");
  });

  it("reports rows that are not JSON, not objects or of a version this deployment cannot read", () => {
    expect(decodeStored("search", "{not json").problem).toBe("the stored row is not valid JSON");
    expect(decodeStored("agent", "[1]").problem).toBe("the stored row is not a JSON object");
    const future = decodeStored("widget", JSON.stringify({ version: 9, title: "Kept title" }));
    expect(future.problem).toBe("version 9 is not one this deployment reads");
    expect(future.value.title).toBe("Kept title");
  });
});
