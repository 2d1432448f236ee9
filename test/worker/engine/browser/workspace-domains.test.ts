import { afterEach, describe, expect, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The same page server under a host name outside the allowed list. */
const outside = (path: string) => page(path).replace("127.0.0.1", "localhost");
const redirectTo = (url: string) => page(`/browser/redirect?to=${encodeURIComponent(url)}`);

const putSettings = (body: Record<string, unknown>) => api("/v1/settings", { method: "PUT", json: body });

/** The tool messages of a model request, parsed. */
type Req = Awaited<ReturnType<typeof modelRequests>>[number];
const toolResults = (r: Req) =>
  r.messages
    .filter((m) => m.role === "tool")
    .map((m) => JSON.parse(String(m.content)) as { ok?: boolean; error?: { code: string; message: string } });

describe("the workspace's allowed_domains", () => {
  afterEach(async () => {
    await putSettings({ allowed_domains: null });
  });

  it("is a workspace setting, validated, shown by GET and cleared with null", async () => {
    const res = await putSettings({ allowed_domains: ["127.0.0.1", "*.example.org"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ allowed_domains: ["127.0.0.1", "*.example.org"] });
    expect(await (await api("/v1/settings")).json()).toMatchObject({
      allowed_domains: ["127.0.0.1", "*.example.org"],
      search: { engine: "duckduckgo" },
    });
    for (const bad of [["https://example.com/"], "example.com", [""]]) {
      const refused = await putSettings({ allowed_domains: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
    }
    expect(
      ((await (await putSettings({ allowed_domains: null })).json()) as Record<string, unknown>)
        .allowed_domains,
    ).toBeNull();
  });

  it(
    "refuses web_fetch and the browser outside it in every conversation, redirects included, and the model reads why",
    async () => {
      await putSettings({ allowed_domains: ["127.0.0.1"] });
      const key = uniqueKey("ws-domains");
      await script(key, [
        {
          tool_calls: [
            { name: "web_fetch", arguments: { url: outside("/hello") } },
            { name: "web_fetch", arguments: { url: redirectTo(outside("/hello")) } },
          ],
        },
        { tool_calls: [{ name: "open_tab", arguments: { url: outside("/hello") } }] },
        { tool_calls: [{ name: "open_tab", arguments: { url: redirectTo(outside("/hello")) } }] },
        { tool_calls: [{ name: "web_fetch", arguments: { url: page("/hello") } }] },
        { text: "done" },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go", stream: false },
      });
      expect(await res.json()).toMatchObject({ status: "succeeded", output: "done" });
      const requests = await modelRequests(key);

      const [direct, viaRedirect] = toolResults(requests[1]);
      expect(direct.error?.code).toBe("domain_not_allowed");
      expect(direct.error?.message).toMatch(
        /localhost:\d+ is outside this workspace's allowed_domains \(127\.0\.0\.1\)/,
      );
      expect(viaRedirect.error?.code).toBe("domain_not_allowed");
      expect(viaRedirect.error?.message).toMatch(
        /localhost.*outside this workspace's allowed_domains.*redirected there/,
      );

      const tab = toolResults(requests[2]).at(-1)!;
      expect(tab.error?.code).toBe("navigation_refused");
      expect(tab.error?.message).toMatch(/localhost:\d+ is outside this workspace's allowed_domains/);
      const tabRedirect = toolResults(requests[3]).at(-1)!;
      expect(tabRedirect.error?.code).toBe("navigation_refused");
      expect(tabRedirect.error?.message).toMatch(/localhost:\d+ is outside this workspace's allowed_domains/);

      const allowed = JSON.parse(String(requests[4].messages.at(-1)!.content));
      expect(allowed).toMatchObject({ final_url: page("/hello"), content: expect.stringContaining("Hello") });
    },
    T,
  );

  it(
    "refuses a sub-agent's tab outside it too",
    async () => {
      await putSettings({ allowed_domains: ["127.0.0.1"] });
      const key = uniqueKey("ws-domains-sub");
      await script(key, [
        {
          tool_calls: [
            {
              name: "agent",
              arguments: { prompt: "Open the page", type: "page_operator", description: "opener" },
            },
          ],
        },
        { tool_calls: [{ name: "open_tab", arguments: { url: outside("/hello") } }] },
        { text: "could not open it" },
        { text: "done" },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go", stream: false },
      });
      expect(await res.json()).toMatchObject({ status: "succeeded" });
      const requests = await modelRequests(key);
      const subResult = toolResults(requests[2]).at(-1)!;
      expect(subResult.error?.code).toBe("navigation_refused");
      expect(subResult.error?.message).toMatch(/outside this workspace's allowed_domains/);
    },
    T,
  );

  it(
    "applies to a browser already open when the setting changes",
    async () => {
      const conv = await createConversation("echo");
      const home = await ok(conv, "open_tab", { url: page("/hello") });
      expect((await ok(conv, "open_tab", { url: outside("/hello") })).title).toBe("Hello");
      await putSettings({ allowed_domains: ["127.0.0.1"] });
      const clickable = await ok(conv, "open_tab", {
        url: page(`/browser/outside?to=${encodeURIComponent(outside("/hello"))}`),
        tab_id: home.id,
      });
      expect(clickable.title).toBe("Outside link");
      const clicked = await tool(conv, "click", { tab_id: home.id, selector: "#out" });
      expect(clicked).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      const fetched = await tool(conv, "web_fetch", { url: outside("/hello") });
      expect(fetched).toMatchObject({ status: 422, error: { code: "domain_not_allowed" } });
    },
    T,
  );

  it(
    "combines with the conversation's own list: a URL must satisfy both",
    async () => {
      await putSettings({ allowed_domains: ["127.0.0.1"] });
      const narrower = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
      expect((await ok(narrower, "web_fetch", { url: page("/hello") })).content).toContain("Hello");

      const wider = await createConversation("echo", { allowed_domains: ["127.0.0.1", "localhost"] });
      const refused = await tool(wider, "open_tab", { url: outside("/hello") });
      expect(refused.error?.message).toMatch(/outside this workspace's allowed_domains/);

      const disjoint = await createConversation("echo", { allowed_domains: ["localhost"] });
      const notConv = await tool(disjoint, "web_fetch", { url: page("/hello") });
      expect(notConv.error?.message).toMatch(
        /127\.0\.0\.1:\d+ is outside this conversation's allowed_domains \(localhost\)/,
      );
      const notWs = await tool(disjoint, "open_tab", { url: outside("/hello") });
      expect(notWs.error?.message).toMatch(/outside this workspace's allowed_domains/);
    },
    T,
  );
});
