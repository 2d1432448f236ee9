import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { McpRegistry } from "../../../durable-objects/mcp-registry/mcp-registry-object";
import type { McpServerView } from "../../../schemas/mcp";
import { api, createConversation, env, script, uniqueKey } from "../helpers";
import { addServer, mcpUrls, serverLog, toolResultsById } from "./mcp-helpers";

const send = (id: string, content: string) =>
  api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, stream: false } });
const oauthOrigin = () => new URL(mcpUrls().oauth).origin;
const oauthControl = async (path: string, method = "POST") =>
  (await fetch(`${oauthOrigin()}/oauth-control/${path}`, { method })).json() as Promise<
    Record<string, number>
  >;
const registry = () => {
  const ns = env.MCP_REGISTRY as DurableObjectNamespace<McpRegistry>;
  return ns.get(ns.idFromName("default"));
};

let server: McpServerView;
let authorizationUrl: URL;

beforeAll(async () => {
  await api("/v1/mcp/servers");
}, 60_000);

describe("an MCP server behind OAuth", () => {
  it("needs authorisation until it is connected", async () => {
    server = await addServer({ name: "secure", url: mcpUrls().oauth });
    expect(server).toMatchObject({ status: "needs_auth", tools: [] });
  });

  it("gives an authorization URL found by discovery, with a dynamically registered client and PKCE", async () => {
    const res = await api(`/v1/mcp/servers/${server.id}/authorize`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { authorization_url: string; status: string };
    expect(body.status).toBe("needs_auth");
    authorizationUrl = new URL(body.authorization_url);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${oauthOrigin()}/authorize`);
    const q = authorizationUrl.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("redirect_uri")).toBe("https://cirrus.test/v1/mcp/oauth/callback");
    expect(q.get("client_id")).toMatch(/^client-/);
    expect(q.get("state")).toMatch(/^default\./);
    expect(q.get("resource")).toBe(mcpUrls().oauth);
    expect((await oauthControl("stats", "GET")).registrations).toBe(1);
  });

  it("completes the sign-in on the callback even after the object restarted in between", async () => {
    await abortAllDurableObjects(); // the sign-in's state and verifier live in storage, not memory
    const consent = await fetch(authorizationUrl, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get("location")!);
    const res = await api(`${back.pathname}${back.search}`, { token: null });
    expect(res.status).toBe(200);
    const connected = (await res.json()) as McpServerView;
    expect(connected).toMatchObject({ name: "secure", status: "connected" });
    expect(connected.tools.map((t) => t.name)).toContain("lookup");
    expect(connected.oauth).toMatchObject({ connected: true });
    expect((await oauthControl("stats", "GET")).codes).toBe(1);
    // The same callback again is refused: the state was used up.
    const again = await api(`${back.pathname}${back.search}`, { token: null });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("invalid_state");
  });

  it("keeps tokens encrypted at rest and never shows them", async () => {
    const rows = await runInDurableObject(registry(), async (_obj, state) =>
      state.storage.sql.exec("SELECT tokens, client FROM mcp_oauth").toArray(),
    );
    const log = await serverLog("oauth");
    const token = /^Bearer (.+)$/.exec(log.headers.findLast((h) => h.authorization)!.authorization)![1];
    expect(token).toMatch(/^at-/);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain("refresh_token");
    const view = await (await api(`/v1/mcp/servers/${server.id}`)).text();
    expect(view).not.toContain(token);
  });

  it("calls tools with the token, across restarts, and refreshes it after a 401 and before it expires", async () => {
    const key = uniqueKey("mcp-oauth");
    await script(key, [
      { tool_calls: [{ id: "a", name: "secure__lookup", arguments: { id: "o1" } }] },
      { text: "one" },
      { tool_calls: [{ id: "b", name: "secure__lookup", arguments: { id: "o2" } }] },
      { text: "two" },
      { tool_calls: [{ id: "c", name: "secure__lookup", arguments: { id: "o3" } }] },
      { text: "three" },
    ]);
    const id = await createConversation(key, { mcp_servers: ["secure"] });
    expect(await (await send(id, "first")).json()).toMatchObject({ output: "one" });
    await abortAllDurableObjects();
    // The authorization server revokes every access token; the next call gets 401 and refreshes.
    await oauthControl("expires-in/3");
    await oauthControl("expire-tokens");
    expect(await (await send(id, "second")).json()).toMatchObject({ output: "two" });
    expect((await oauthControl("stats", "GET")).refreshes).toBe(1);
    // The refreshed token lives 3 s; with under half of that left it is refreshed before it is used.
    // The clock seam: the stored expiry moves 2 s closer, as if 2 s had passed.
    await runInDurableObject(registry(), async (_obj, state) => {
      state.storage.sql.exec(
        "UPDATE mcp_oauth SET expires_at = expires_at - 2000 WHERE server_id = ?",
        server.id,
      );
    });
    expect(await (await send(id, "third")).json()).toMatchObject({ output: "three" });
    const stats = await oauthControl("stats", "GET");
    expect(stats.refreshes).toBe(2);
    expect(stats.reused_refresh_tokens).toBe(0);
    expect(stats.codes).toBe(1); // never a new sign-in
    const results = await toolResultsById(key);
    expect(JSON.parse(results.get("c")!).text).toBe("order o3 is shipped");
    await oauthControl("expires-in/3600");
  });

  it("answers a callback with a bad state or a denied sign-in with 400 in the one error shape", async () => {
    const bad = await api("/v1/mcp/oauth/callback?code=x&state=nonsense", { token: null });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_state");
    const denied = await api(
      "/v1/mcp/oauth/callback?error=access_denied&state=default.aaaaaaaaaaaaaaaaaaaa",
      {
        token: null,
      },
    );
    expect(denied.status).toBe(400);
    expect(await denied.json()).toEqual({
      error: { code: "oauth_denied", message: "The sign-in did not complete: access_denied" },
    });
    const html = await api("/v1/mcp/oauth/callback?code=x&state=default.<script>alert(1)</script>", {
      token: null,
      headers: { accept: "text/html" },
    });
    expect(html.status).toBe(400);
    expect(await html.text()).not.toContain("<script>");
  });
});
