import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  modelRequests,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, page, tool } from "./browser-helpers";

const SECRET = "hunter2-Sup3r-s3cret!";

async function workspaceKey(): Promise<string> {
  const ws = await api("/v1/workspaces", { method: "POST", json: { name: "secrets" } });
  const { id } = (await ws.json()) as { id: string };
  const key = await api(`/v1/workspaces/${id}/keys`, { method: "POST", json: { name: "k" } });
  return ((await key.json()) as { key: string }).key;
}

describe("the workspace secret store", () => {
  it("stores secrets write-only, lists names only and deletes them", async () => {
    const put = await api("/v1/secrets/shop_password", { method: "PUT", json: { value: SECRET } });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ name: "shop_password", set: true });
    const list = await api("/v1/secrets");
    const text = await list.text();
    expect(JSON.parse(text).data.map((s: { name: string }) => s.name)).toEqual(["shop_password"]);
    expect(text).not.toContain(SECRET);

    const stored = await runInDurableObject(
      env.WORKSPACES.get(env.WORKSPACES.idFromName("default")),
      (_o, state) => state.storage.sql.exec<{ sealed: string }>("SELECT sealed FROM secrets").toArray(),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].sealed).not.toContain(SECRET);
    expect(atob(stored[0].sealed.split(":").at(-1)!)).not.toContain(SECRET);

    const other = await workspaceKey();
    const elsewhere = await api("/v1/secrets", { token: other });
    expect(((await elsewhere.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await api("/v1/secrets/shop_password", { method: "DELETE", token: other })).status).toBe(404);

    expect((await api("/v1/secrets/bad name", { method: "PUT", json: { value: "x" } })).status).toBe(400);
    expect((await api("/v1/secrets/empty", { method: "PUT", json: {} })).status).toBe(400);
    expect((await api("/v1/secrets", { token: null })).status).toBe(401);
    const del = await api("/v1/secrets/shop_password", { method: "DELETE" });
    expect(await del.json()).toEqual({ name: "shop_password", deleted: true });
    expect((await api("/v1/secrets/shop_password", { method: "DELETE" })).status).toBe(404);
  });
});

describe("type_secret", () => {
  it(
    "types a secret into a page without it reaching the model, the event log or any result",
    async () => {
      await api("/v1/secrets/shop_password", { method: "PUT", json: { value: SECRET } });
      const key = uniqueKey("secret");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/browser/form") } }] },
        {
          tool_calls: [
            { id: "c2", name: "type_text", arguments: { selector: "#user", text: "ada" } },
            {
              id: "c3",
              name: "type_secret",
              arguments: { selector: 'input[name="pass"]', secret: "shop_password" },
            },
          ],
        },
        { tool_calls: [{ id: "c4", name: "get_tab_content", arguments: { tab_id: 1 } }] },
        {
          tool_calls: [
            { id: "c5", name: "click", arguments: { selector: "#login > button:nth-of-type(1)" } },
          ],
        },
        { tool_calls: [{ id: "c6", name: "get_tab_content", arguments: { tab_id: 1 } }] },
        {
          tool_calls: [
            {
              id: "c7",
              name: "execute_script",
              arguments: { target: "page", code: "document.getElementById('echo').textContent" },
            },
          ],
        },
        { text: "Signed in." },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "Sign in" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      expect(events.at(-1)?.data.type).toBe("RUN_FINISHED");

      const results = events
        .filter((e) => e.data.type === "TOOL_CALL_RESULT")
        .map((e) => String(e.data.content));
      expect(results).toHaveLength(7);
      expect(JSON.parse(results[2])).toMatchObject({ tab_id: 1, secret: "shop_password", typed: true });
      expect(results[3]).toContain('[password field: Password = \\"••••••\\"]');
      expect(results[4]).toContain('"title":"Signed in"');
      expect(results[5]).toContain("Password was: <secret:shop_password>");
      expect(JSON.parse(results[6]).result).toBe("Password was: <secret:shop_password>");

      const log = await readSse(await api(`/v1/conversations/${conv}/events`), untilRunEnd, 10_000);
      expect(JSON.stringify(log)).not.toContain(SECRET);
      expect(JSON.stringify(await modelRequests(key))).not.toContain(SECRET);
      const details = await api(`/v1/conversations/${conv}`);
      expect(await details.text()).not.toContain(SECRET);

      const unknown = await tool(conv, "type_secret", { selector: "#user", secret: "nope" });
      expect(unknown).toMatchObject({ status: 404, error: { code: "not_found" } });
      expect(unknown.error?.message).toMatch(/No secret named "nope"/);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
