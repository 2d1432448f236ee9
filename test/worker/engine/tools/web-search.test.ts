import { describe, expect, inject, it } from "vitest";
import { api, createConversation, runMessage, script, uniqueKey } from "../../helpers";

const base = (engine: string) => `${inject("pageUrl")}/search/${engine}`;

interface Result {
  title: string;
  url: string;
  snippet: string;
}

async function useEngine(search: Record<string, unknown>): Promise<void> {
  const res = await api("/v1/settings", { method: "PUT", json: { search } });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

async function search(args: Record<string, unknown>) {
  const conv = await createConversation("echo");
  const res = await api(`/v1/conversations/${conv}/tools/web_search`, {
    method: "POST",
    json: { arguments: args },
  });
  const body = (await res.json()) as { result: Result[]; error: { code: string; message: string } };
  return { status: res.status, results: body.result, error: body.error };
}

const DEFAULTS = {
  base_urls: {},
  searxng_url: null,
  google_cse_id: null,
  bing_api_key: null,
  google_api_key: null,
  brave_api_key: null,
};

describe("web_search on DuckDuckGo (the default engine)", () => {
  it("parses a real result page into five results with unwrapped URLs by default", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { status, results } = await search({ query: "golang programming language" });
    expect(status).toBe(200);
    expect(results).toHaveLength(5);
    expect(results[0]).toEqual({
      title: expect.stringContaining("Go"),
      url: expect.stringMatching(/^https:\/\/(?!duckduckgo\.com)/),
      snippet: expect.any(String),
    });
    expect(results.map((r) => r.url)).toContain("https://en.wikipedia.org/wiki/Go_(programming_language)");
    for (const r of results) expect(r.snippet.length).toBeGreaterThan(20);
  });

  it("returns up to max_results and never more than 10", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    expect((await search({ query: "golang", max_results: 3 })).results).toHaveLength(3);
    expect((await search({ query: "golang", max_results: 50 })).results).toHaveLength(10);
  });

  it("parses the lite layout, decoding uddg once", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { results } = await search({ query: "lite", max_results: 10 });
    expect(results.length).toBeGreaterThan(5);
    for (const r of results) expect(r.url).not.toContain("duckduckgo.com/l/");
    expect(results.some((r) => r.url.includes("San%20Francisco"))).toBe(true);
  });

  it("leaves out ads", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { results } = await search({ query: "ads" });
    expect(results).toEqual([
      {
        title: "The Best Running Shoes of 2026",
        url: "https://www.runnersworld.com/gear/a20856596/best-running-shoes/",
        snippet: "We tested 100 pairs of running shoes 'on the road'.",
      },
    ]);
  });

  it("returns an empty list only for a real 'no results' page", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { status, results } = await search({ query: "empty" });
    expect(status).toBe(200);
    expect(results).toEqual([]);
  });

  it("reports a bot check as an error, not as no results", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { status, error } = await search({ query: "captcha" });
    expect(status).toBe(422);
    expect(error.code).toBe("search_blocked");
    expect(error.message).toContain("bot check");
  });

  it("reports an HTTP error of the engine", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { error } = await search({ query: "fail" });
    expect(error).toMatchObject({ code: "search_failed", message: expect.stringContaining("HTTP 503") });
  });

  it("reports an engine slower than the timeout", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const { error } = await search({ query: "slow" });
    expect(error).toMatchObject({ code: "search_timeout", message: expect.stringContaining("within 3 s") });
  });

  it("is used by the model in a run", async () => {
    await useEngine({ ...DEFAULTS, engine: "duckduckgo", base_urls: { duckduckgo: base("ddg") } });
    const key = uniqueKey("run-search");
    await script(key, [
      { tool_calls: [{ id: "call_s", name: "web_search", arguments: { query: "golang", max_results: 2 } }] },
      { text: "Go is a programming language." },
    ]);
    const conv = await createConversation(key);
    const events = await runMessage(conv, "What is Go?");
    const result = events.find((e) => e.data.type === "TOOL_CALL_RESULT")!.data;
    const parsed = JSON.parse(result.content as string) as Result[];
    expect(parsed).toHaveLength(2);
    expect(parsed[0].url).toMatch(/^https:\/\//);
    expect(events.at(-1)!.data.type).toBe("RUN_FINISHED");
  });
});

describe("web_search on the other engines", () => {
  it("Baidu: parses the 2018 page and resolves its /link?url= redirects", async () => {
    await useEngine({ ...DEFAULTS, engine: "baidu", base_urls: { baidu: base("baidu") } });
    const { status, results } = await search({ query: "月子会所", max_results: 10 });
    expect(status).toBe(200);
    expect(results.length).toBeGreaterThan(3);
    expect(results[0].title).toContain("月子中心");
    expect(results[0].snippet).toContain("骐扬");
    for (const r of results) expect(r.url).toMatch(/^https:\/\/resolved\.example\//);
  });

  it("Baidu: reads the 2026 layout's real URL from mu and skips ad cards", async () => {
    await useEngine({ ...DEFAULTS, engine: "baidu", base_urls: { baidu: base("baidu") } });
    const { results } = await search({ query: "bun" });
    expect(results).toEqual([
      {
        title: "Bun — A fast all-in-one JavaScript runtime",
        url: "https://bun.sh/",
        snippet: "Bun is a fast JavaScript all-in-one toolkit.",
      },
      {
        title: "Bun (software) - Wikipedia",
        url: "https://resolved.example/xyzTOKEN789",
        snippet: "Bun is a JavaScript runtime, package manager and test runner.",
      },
    ]);
  });

  it("Baidu: reports its security check as an error", async () => {
    await useEngine({ ...DEFAULTS, engine: "baidu", base_urls: { baidu: base("baidu") } });
    expect((await search({ query: "captcha" })).error.code).toBe("search_blocked");
  });

  it("Bing: sends the key and parses webPages", async () => {
    await useEngine({
      ...DEFAULTS,
      engine: "bing",
      base_urls: { bing: base("bing") },
      bing_api_key: "bing-test-key",
    });
    const { results } = await search({ query: "What is the Semantic Kernel?", max_results: 2 });
    expect(results[0]).toEqual({
      title: "Introduction to Semantic Kernel | Microsoft Learn",
      url: "https://learn.microsoft.com/en-us/semantic-kernel/overview/",
      snippet: expect.stringContaining("Semantic Kernel"),
    });
    expect(results).toHaveLength(2);
  });

  it("Bing: unwraps bing.com/cr redirect URLs", async () => {
    await useEngine({
      ...DEFAULTS,
      engine: "bing",
      base_urls: { bing: base("bing") },
      bing_api_key: "bing-test-key",
    });
    const { results } = await search({ query: "wrapped" });
    expect(results[0].url).toBe("http://www.imdb.com/name/nm0000129/");
  });

  it("Bing: a rejected key is a clear error", async () => {
    await useEngine({
      ...DEFAULTS,
      engine: "bing",
      base_urls: { bing: base("bing") },
      bing_api_key: "wrong",
    });
    const { error } = await search({ query: "x" });
    expect(error).toMatchObject({ code: "search_failed", message: expect.stringContaining("HTTP 401") });
  });

  it("Google Custom Search: parses items (the saved body starts with a BOM)", async () => {
    await useEngine({
      ...DEFAULTS,
      engine: "google",
      base_urls: { google: base("google") },
      google_api_key: "g-key",
      google_cse_id: "cx1",
    });
    const { results } = await search({ query: "semantic kernel" });
    expect(results[0]).toMatchObject({
      title: "Hello, Semantic Kernel! | Semantic Kernel",
      url: "https://devblogs.microsoft.com/semantic-kernel/hello-world/",
    });
  });

  it("Brave: strips markup from descriptions and reports a bad token", async () => {
    await useEngine({
      ...DEFAULTS,
      engine: "brave",
      base_urls: { brave: base("brave") },
      brave_api_key: "brave-test-key",
    });
    const { results } = await search({ query: "semantic kernel" });
    expect(results[0]).toMatchObject({
      title: "Introduction to Semantic Kernel | Microsoft Learn",
      url: "https://learn.microsoft.com/en-us/semantic-kernel/overview/",
    });
    expect(results[0].snippet).toContain("combines prompts with existing APIs");
    for (const r of results) expect(r.snippet).not.toMatch(/<strong>|&#x27;/);
    await useEngine({ brave_api_key: "bad" });
    expect((await search({ query: "x" })).error).toMatchObject({
      code: "search_failed",
      message: expect.stringContaining("HTTP 422"),
    });
  });

  it("SearXNG: parses results, and no results because its engines failed is an error", async () => {
    await useEngine({ ...DEFAULTS, engine: "searxng", searxng_url: base("searxng") });
    const { results } = await search({ query: "severance" });
    expect(results[0].url).toBe(
      "https://www.reddit.com/r/SeveranceAppleTVPlus/comments/1idlrtq/what_other_shows_do_you_rate_as_highly_as_or/",
    );
    const failed = await search({ query: "nothing" });
    expect(failed.error).toMatchObject({
      code: "search_failed",
      message: expect.stringContaining("CAPTCHA"),
    });
    const forbidden = await search({ query: "forbidden" });
    expect(forbidden.error.message).toContain("search.formats");
  });
});

describe("web_search with the private-network guard on", () => {
  it("refuses an engine address that is private, without showing the API key", async () => {
    const { ToolRegistry } = await import("../../../../durable-objects/engine/tools/tool");
    const { createWebTools } = await import("../../../../durable-objects/engine/tools/web");
    const { runTool } = await import("../../../../durable-objects/engine/tools/tool-runner");
    const { DEFAULT_SEARCH_SETTINGS } = await import("../../../../schemas/settings");
    const settings = {
      ...DEFAULT_SEARCH_SETTINGS,
      engine: "google" as const,
      base_urls: { google: base("google") },
      google_api_key: "SECRET-GOOGLE-KEY",
      google_cse_id: "cx",
    };
    const config = {
      allowPrivateNetwork: false,
      fetchTimeoutMs: 3000,
      fetchMaxBytes: 1_000_000,
      fetchMaxPdfBytes: 1_000_000,
      fetchMaxDocxBytes: 1_000_000,
      searchTimeoutMs: 3000,
    };
    const tools = new ToolRegistry(
      createWebTools({ config, summarize: async () => "", searchSettings: async () => settings }),
    );
    const ctx = { conversationId: "c", workspaceId: "w", runId: null, toolCallId: "t" };
    const outcome = await runTool(tools, "web_search", { query: "x" }, ctx, {
      timeoutMs: 5000,
      maxResultChars: 50_000,
      retryBudget: 3,
    });
    expect(outcome).toMatchObject({ kind: "result", isError: true, code: "blocked_address" });
    expect(JSON.stringify(outcome)).not.toContain("SECRET-GOOGLE-KEY");
  });
});
