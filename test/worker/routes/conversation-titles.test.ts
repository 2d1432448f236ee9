import { describe, expect, it } from "vitest";
import { api, createConversation, newWorkspaceKey, script, uniqueKey } from "../helpers";

type Conv = { id: string; title: string | null; channel: string; status: string; last_activity_at: number };
type Page = { data: Conv[]; has_more: boolean; next_cursor: string | null };

const list = async (query: string, key?: string) => {
  const res = await api(`/v1/conversations?${query}`, key ? { token: key } : {});
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};

describe("conversation titles, channel and the searchable list", () => {
  it("takes a title on create and shows title, channel, status and last activity", async () => {
    const res = await api("/v1/conversations", { method: "POST", json: { title: "  Trip to Lisbon  " } });
    expect(res.status).toBe(201);
    const conv = (await res.json()) as Conv & { created_at: number };
    expect(conv).toMatchObject({ title: "Trip to Lisbon", channel: "api", status: "idle" });
    expect(conv.last_activity_at).toBe(conv.created_at);
    const dash = await api("/v1/conversations", { method: "POST", json: { channel: "dashboard" } });
    expect(((await dash.json()) as Conv).channel).toBe("dashboard");
  });

  it("titles a conversation by the start of its first message, and never retitles it after", async () => {
    const key = uniqueKey("title");
    await script(key, [{ text: "one" }, { text: "two" }]);
    const id = await createConversation(key);
    const long = `What were the most important AI announcements this week, and who made them? ${"x".repeat(200)}\nsecond line`;
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: long, stream: false } });
    const conv = (await (await api(`/v1/conversations/${id}`)).json()) as Conv;
    expect(conv.title).toHaveLength(80);
    expect(conv.title!.startsWith("What were the most important AI announcements this week")).toBe(true);
    expect(conv.title!.endsWith("…")).toBe(true);
    expect(conv.last_activity_at).toBeGreaterThan(0);
    await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "Other", stream: false },
    });
    expect(((await (await api(`/v1/conversations/${id}`)).json()) as Conv).title).toBe(conv.title);
  });

  it("renames with PATCH, and refuses a bad title or an unknown conversation in the one error shape", async () => {
    const { id } = (await (await api("/v1/conversations", { method: "POST", json: {} })).json()) as Conv;
    const ok = await api(`/v1/conversations/${id}`, { method: "PATCH", json: { title: "Renamed" } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Conv).title).toBe("Renamed");
    const empty = await api(`/v1/conversations/${id}`, { method: "PATCH", json: { title: "   " } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const extra = await api(`/v1/conversations/${id}`, { method: "PATCH", json: { title: "x", model: "y" } });
    expect(extra.status).toBe(400);
    const missing = await api("/v1/conversations/conv_nope", { method: "PATCH", json: { title: "x" } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("finds conversations by title, newest first, a page at a time, inside its workspace only", async () => {
    const { key } = await newWorkspaceKey("titles");
    const make = async (title: string) => {
      const res = await api("/v1/conversations", { method: "POST", token: key, json: { title } });
      return ((await res.json()) as Conv).id;
    };
    const a = await make("Budget review 2026");
    await make("Lisbon trip");
    const c = await make("budget for the offsite");
    const d = await make("100% done_ list");
    const first = await list("q=budget&limit=1", key);
    expect(first.data.map((x) => x.id)).toEqual([c]);
    expect(first.has_more).toBe(true);
    const second = await list(`q=budget&limit=1&cursor=${first.next_cursor}`, key);
    expect(second.data.map((x) => x.id)).toEqual([a]);
    expect(second.has_more).toBe(false);
    // LIKE's wildcards are literal in a search.
    expect((await list("q=%25", key)).data.map((x) => x.id)).toEqual([d]);
    expect((await list("q=_", key)).data.map((x) => x.id)).toEqual([d]);
    // The admin's default workspace does not see them.
    expect((await list("q=Lisbon%20trip")).data).toEqual([]);
    // A renamed conversation is found by its new title.
    await api(`/v1/conversations/${a}`, {
      method: "PATCH",
      token: key,
      json: { title: "Quarterly numbers" },
    });
    expect((await list("q=quarterly", key)).data.map((x) => x.id)).toEqual([a]);
    expect((await list("q=budget", key)).data.map((x) => x.id)).toEqual([c]);
  });
});
