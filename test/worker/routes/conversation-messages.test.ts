import { describe, expect, it } from "vitest";
import { api, createConversation, newWorkspaceKey, script, seedMessages, uniqueKey } from "../helpers";

/** More than GET /v1/conversations/{id} shows (its newest 1,000) and more than one full page. */
const SEEDED = 2_345;

interface Page {
  data: { id: number; role: string; content: string }[];
  has_more: boolean;
  next_cursor: string | null;
  total: number;
}

async function page(conv: string, query: string): Promise<Page> {
  const res = await api(`/v1/conversations/${conv}/messages?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** Follows next_cursor from the first page to the last; returns every page. */
async function everyPage(conv: string, query: string): Promise<Page[]> {
  const pages = [await page(conv, query)];
  while (pages.at(-1)!.next_cursor)
    pages.push(await page(conv, `${query}&cursor=${pages.at(-1)!.next_cursor}`));
  return pages;
}

describe("GET /v1/conversations/{id}/messages", () => {
  it("pages through every message oldest first across page boundaries, past the 1,000 the details show", async () => {
    const id = await createConversation(uniqueKey("pages"));
    await seedMessages(id, SEEDED, "turn");

    const pages = await everyPage(id, "limit=1000");
    expect(pages.map((p) => p.data.length)).toEqual([1000, 1000, 345]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages.every((p) => p.total === SEEDED)).toBe(true);
    const all = pages.flatMap((p) => p.data);
    expect(all.map((m) => m.content)).toEqual(Array.from({ length: SEEDED }, (_, i) => `turn ${i + 1}`));
    expect(new Set(all.map((m) => m.id)).size).toBe(SEEDED);
    expect(all[0]).toMatchObject({ role: "user", content: "turn 1", run_id: null });
  });

  it("pages newest first with order=desc, each message exactly once", async () => {
    const id = await createConversation(uniqueKey("pages-desc"));
    await seedMessages(id, 7, "turn");

    const pages = await everyPage(id, "limit=3&order=desc");
    expect(pages.map((p) => p.data.map((m) => m.content))).toEqual([
      ["turn 7", "turn 6", "turn 5"],
      ["turn 4", "turn 3", "turn 2"],
      ["turn 1"],
    ]);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("shows a run's messages as they are stored: the user's message and the agent's answer", async () => {
    const key = uniqueKey("pages-run");
    await script(key, [{ text: "the answer" }]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "the question", stream: false },
    });
    expect(res.status).toBe(200);
    const first = await page(id, "");
    expect(first.data.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: "user", content: "the question" },
      { role: "assistant", content: "the answer" },
    ]);
    expect(first).toMatchObject({ has_more: false, next_cursor: null, total: 2 });
  });

  it("refuses a cursor that is not one it gave and a limit out of range, and 404s an unknown conversation", async () => {
    const id = await createConversation(uniqueKey("pages-bad"));
    const badCursor = await api(`/v1/conversations/${id}/messages?cursor=abc`);
    expect(badCursor.status).toBe(400);
    expect(((await badCursor.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const badLimit = await api(`/v1/conversations/${id}/messages?limit=1001`);
    expect(badLimit.status).toBe(400);
    expect(((await badLimit.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const unknown = await api("/v1/conversations/conv_nope/messages");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: "not_found", message: "No conversation conv_nope in this workspace." },
    });
  });

  it("shows another workspace's conversation to nobody but that workspace", async () => {
    const other = await newWorkspaceKey("messages-other");
    const id = await createConversation(uniqueKey("pages-scope"));
    await seedMessages(id, 3, "turn");
    const res = await api(`/v1/conversations/${id}/messages`, { token: other.key });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
