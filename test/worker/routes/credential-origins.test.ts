import { describe, expect, inject, it } from "vitest";
import { MCP_TEST_TOKEN, serverLog, tenantUrl } from "../mcp/mcp-helpers";
import { api, createConversation, newWorkspaceKey, uniqueKey } from "../helpers";

const pageUrl = () => inject("pageUrl");
/** The page server under another origin (same server, `localhost` instead of 127.0.0.1). */
const otherOrigin = (url: string) => url.replace("://127.0.0.1:", "://localhost:");
const receiverLog = async (name: string) =>
  (
    (await (await fetch(`${pageUrl()}/receiver/${name}/log`)).json()) as {
      requests: { headers: Record<string, string> }[];
    }
  ).requests;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

describe("a stored credential goes only to the origin it was given for", () => {
  it("MCP server: a URL on another origin drops the stored headers; a new path or headers given again keep them", async () => {
    const { key } = await newWorkspaceKey("cred-mcp");
    const tenant = uniqueKey("cred");
    const created = await json<{ id: string }>(
      await api("/v1/mcp/servers", {
        method: "POST",
        token: key,
        json: {
          name: "shop",
          url: tenantUrl("bearer", tenant),
          headers: { authorization: `Bearer ${MCP_TEST_TOKEN}` },
        },
      }),
      201,
    );
    const patch = (body: unknown) =>
      api(`/v1/mcp/servers/${created.id}`, { method: "PATCH", token: key, json: body });
    type View = { header_names: string[]; credentials_cleared: boolean; url: string };

    const samePath = await json<View>(await patch({ url: tenantUrl("bearer", `${tenant}-b`) }));
    expect(samePath).toMatchObject({ credentials_cleared: false, header_names: ["authorization"] });

    const elsewhere = tenantUrl("oauth", tenant);
    const moved = await json<View>(await patch({ url: elsewhere }));
    expect(moved).toMatchObject({ url: elsewhere, credentials_cleared: true, header_names: [] });
    // The new host was contacted (to list its tools) without the token given for the old one.
    const seen = (await serverLog("oauth", tenant)).headers;
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.stringify(seen)).not.toContain(MCP_TEST_TOKEN);

    const back = await json<View>(
      await patch({
        url: tenantUrl("bearer", tenant),
        headers: { authorization: `Bearer ${MCP_TEST_TOKEN}` },
      }),
    );
    expect(back).toMatchObject({ credentials_cleared: false, header_names: ["authorization"] });
  });

  it("MCP server: a URL on another origin drops its stored OAuth client; given again with the URL, it stays", async () => {
    const { key } = await newWorkspaceKey("cred-mcp-oauth");
    const url = tenantUrl("oauth", uniqueKey("cred-oauth"));
    type View = { credentials_cleared: boolean; url: string; oauth: { client_id: string | null } | null };
    const created = await json<View & { id: string }>(
      await api("/v1/mcp/servers", {
        method: "POST",
        token: key,
        json: { name: "crm", url, oauth: { client_id: "cirrus-crm", client_secret: "crm-client-secret" } },
      }),
      201,
    );
    expect(created.oauth?.client_id).toBe("cirrus-crm");
    const patch = (body: unknown) =>
      api(`/v1/mcp/servers/${created.id}`, { method: "PATCH", token: key, json: body });

    const moved = await json<View>(await patch({ url: otherOrigin(url) }));
    expect(moved).toMatchObject({ url: otherOrigin(url), credentials_cleared: true, oauth: null });

    const back = await json<View>(await patch({ url, oauth: { client_id: "cirrus-crm" } }));
    expect(back).toMatchObject({ url, credentials_cleared: false, oauth: { client_id: "cirrus-crm" } });
  });

  it("HTTP tool: a URL on another origin drops the stored headers before the next call", async () => {
    const { key } = await newWorkspaceKey("cred-http");
    const [a, b] = [uniqueKey("cred-a"), uniqueKey("cred-b")];
    const created = await json<{ secret: string }>(
      await api("/v1/tools", {
        method: "POST",
        token: key,
        json: {
          name: "crm",
          description: "CRM.",
          url: `${pageUrl()}/receiver/${a}`,
          headers: { "x-api-key": "k-123" },
        },
      }),
      201,
    );
    await fetch(`${pageUrl()}/receiver/${b}/config`, {
      method: "POST",
      body: JSON.stringify({ secret: created.secret }),
    });
    const patch = (body: unknown) => api("/v1/tools/crm", { method: "PATCH", token: key, json: body });
    type View = { header_names: string[]; credentials_cleared: boolean; url: string };
    const same = await json<View>(
      await patch({ description: "The CRM.", url: `${pageUrl()}/receiver/${a}?v=2` }),
    );
    expect(same).toMatchObject({ credentials_cleared: false, header_names: ["x-api-key"] });

    const moved = await json<View>(await patch({ url: `${otherOrigin(pageUrl())}/receiver/${b}` }));
    expect(moved).toMatchObject({ credentials_cleared: true, header_names: [] });
    const conv = await createConversation("echo", {}, key);
    const call = await api(`/v1/conversations/${conv}/tools/crm`, {
      method: "POST",
      token: key,
      json: { arguments: {} },
    });
    expect(call.status, await call.clone().text()).toBeLessThan(500);
    const log = await receiverLog(b);
    expect(log).toHaveLength(1);
    expect(log[0].headers["x-api-key"]).toBeUndefined();
    expect((await api("/v1/tools/nope", { method: "PATCH", token: key, json: {} })).status).toBe(404);
  });

  it("job webhook: a URL on another origin gets a new signing secret", async () => {
    const { key } = await newWorkspaceKey("cred-job");
    const hook = `${pageUrl()}/receiver/${uniqueKey("hook")}`;
    const job = await json<{ id: string; webhook_secret: string }>(
      await api("/v1/jobs", {
        method: "POST",
        token: key,
        json: { name: "daily", prompt: "Report.", schedule: "0 9 * * *", webhook_url: hook, enabled: false },
      }),
      201,
    );
    const patch = (body: unknown) => api(`/v1/jobs/${job.id}`, { method: "PATCH", token: key, json: body });
    type View = { webhook_secret: string; credentials_cleared: boolean };
    const same = await json<View>(await patch({ webhook_url: `${hook}/v2` }));
    expect(same).toMatchObject({ credentials_cleared: false, webhook_secret: job.webhook_secret });
    const moved = await json<View>(await patch({ webhook_url: otherOrigin(hook) }));
    expect(moved.credentials_cleared).toBe(true);
    expect(moved.webhook_secret).toMatch(/^whsec_/);
    expect(moved.webhook_secret).not.toBe(job.webhook_secret);
    const read = await json<View>(await api(`/v1/jobs/${job.id}`, { token: key }));
    expect(read.webhook_secret).toBe(moved.webhook_secret);
  });

  it("search engine: a base URL on another origin drops that engine's key; for the engine in use it must be given again", async () => {
    const { key } = await newWorkspaceKey("cred-search");
    const put = (search: unknown) => api("/v1/settings", { method: "PUT", token: key, json: { search } });
    type View = {
      credentials_cleared: boolean;
      search: { brave_api_key: { set: boolean }; bing_api_key: { set: boolean } };
    };
    await json(await put({ engine: "brave", brave_api_key: "BSA-secret", bing_api_key: "bing-secret" }));

    const path = await json<View>(await put({ base_urls: { brave: "https://api.search.brave.com/proxy" } }));
    expect(path).toMatchObject({ credentials_cleared: false, search: { brave_api_key: { set: true } } });
    const moved = await json<View>(await put({ base_urls: { bing: "https://mirror.example/bing" } }));
    expect(moved).toMatchObject({
      credentials_cleared: true,
      search: { bing_api_key: { set: false }, brave_api_key: { set: true } },
    });
    const inUse = await json<{ error: { code: string; message: string } }>(
      await put({ base_urls: { brave: "https://mirror.example/brave" } }),
      400,
    );
    expect(inUse.error).toMatchObject({
      code: "invalid_settings",
      message: expect.stringContaining("brave_api_key"),
    });
    const given = await json<View>(
      await put({ base_urls: { brave: "https://mirror.example/brave" }, brave_api_key: "BSA-for-mirror" }),
    );
    expect(given).toMatchObject({ credentials_cleared: false, search: { brave_api_key: { set: true } } });
    const settings = await json<View>(await api("/v1/settings", { token: key }));
    expect(settings.search.bing_api_key.set).toBe(false);
  });
});
