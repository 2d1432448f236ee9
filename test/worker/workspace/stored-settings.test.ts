import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import searchV1 from "../../fixtures/settings/search-v1-base-url.json";
import searchBadField from "../../fixtures/settings/search-v2-one-bad-field.json";
import { api, newWorkspaceKey } from "../helpers";

type Row = { key: string; value: string };

/** Runs SQL in a workspace's own Durable Object. */
function inWorkspace<T>(workspaceId: string, fn: (sql: SqlStorage) => T): Promise<T> {
  const ns = env.WORKSPACES;
  return runInDurableObject(ns.get(ns.idFromName(workspaceId)), (_obj, state) => fn(state.storage.sql));
}

const storeRow = (ws: string, key: string, value: string) =>
  inWorkspace(ws, (sql) => {
    sql.exec("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", key, value);
  });
const rows = (ws: string, table: "settings" | "settings_archive") =>
  inWorkspace(ws, (sql) => sql.exec<Row>(`SELECT key, value FROM ${table} ORDER BY key`).toArray());

describe("stored workspace settings", () => {
  it("of version 1 are migrated on read: the search engine keeps its key and its base URL", async () => {
    const { id, key } = await newWorkspaceKey("settings-v1");
    await storeRow(id, "search", JSON.stringify(searchV1));
    const res = await api("/v1/settings", { token: key });
    expect(res.status).toBe(200);
    const { search } = (await res.json()) as { search: Record<string, unknown> };
    expect(search).toEqual({
      engine: "bing",
      base_urls: { bing: "http://127.0.0.1:9/bing" },
      searxng_url: null,
      google_cse_id: null,
      bing_api_key: { set: true },
      google_api_key: { set: false },
      brave_api_key: { set: false },
    });
    // Saving another section leaves the search row as it was stored.
    const widget = await api("/v1/settings", {
      method: "PUT",
      token: key,
      json: { widget: { title: "Hi" } },
    });
    expect(widget.status).toBe(200);
    expect((await rows(id, "settings")).find((r) => r.key === "search")?.value).toBe(
      JSON.stringify(searchV1),
    );
  });

  it("that cannot be read whole keep their keys, are never overwritten by a read, and are archived when saved over", async () => {
    const { id, key } = await newWorkspaceKey("settings-bad");
    const stored = JSON.stringify(searchBadField);
    await storeRow(id, "search", stored);
    const view = (await (await api("/v1/settings", { token: key })).json()) as {
      search: Record<string, unknown>;
    };
    expect(view.search).toMatchObject({ engine: "bing", searxng_url: null, bing_api_key: { set: true } });
    expect((await rows(id, "settings")).find((r) => r.key === "search")?.value).toBe(stored);
    expect(await rows(id, "settings_archive")).toEqual([]);

    const save = await api("/v1/settings", {
      method: "PUT",
      token: key,
      json: { search: { google_cse_id: "cse-1" } },
    });
    expect(save.status).toBe(200);
    const [archived] = await rows(id, "settings_archive");
    expect(archived).toEqual({ key: "search", value: stored });
    const now = JSON.parse((await rows(id, "settings")).find((r) => r.key === "search")!.value);
    expect(now).toMatchObject({
      version: 2,
      engine: "bing",
      bing_api_key: "bing-key-kept",
      google_cse_id: "cse-1",
    });
  });
});
