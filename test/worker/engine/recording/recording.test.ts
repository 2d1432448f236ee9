import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sweepExpiredRecordings } from "../../../../durable-objects/engine/recording/recording-store";
import {
  api,
  createConversation,
  eventually,
  newWorkspaceKey,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, page } from "../browser/browser-helpers";

const SECRET = "Rec0rded-n3ver-S3cret!";
const PERSON_TYPED = "person-typed-4711";
const DAY = 86_400_000;

interface Recording {
  id: string;
  tab_id: number;
  url: string;
  events: number;
  chunks: number;
  size: number;
  truncated: boolean;
}

/** rrweb event types: 2 is a full snapshot of the page, 3 an incremental change. */
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;

async function recordings(conv: string, token?: string): Promise<{ status: number; data: Recording[] }> {
  const res = await api(`/v1/conversations/${conv}/recordings`, token ? { token } : {});
  const body = (await res.json()) as { data: Recording[] };
  return { status: res.status, data: body.data ?? [] };
}

/** Every event of a recording, page by page. */
async function eventsOf(conv: string, id: string): Promise<{ type: number; data: unknown }[]> {
  const out: { type: number; data: unknown }[] = [];
  let cursor: string | null = "0";
  while (cursor !== null) {
    const res = await api(`/v1/conversations/${conv}/recordings/${id}?cursor=${cursor}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      events: { type: number; data: unknown }[];
      next_cursor: string | null;
    };
    out.push(...body.events);
    cursor = body.next_cursor;
  }
  return out;
}

describe("browser session recording", () => {
  it(
    "records every tab as rrweb events (pages opened later and navigations too) without secrets or typed input",
    async () => {
      await api("/v1/secrets/rec_password", { method: "PUT", json: { value: SECRET } });
      const key = uniqueKey("recording");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/browser/form") } }] },
        {
          tool_calls: [
            { id: "c2", name: "type_text", arguments: { selector: "#user", text: PERSON_TYPED } },
            {
              id: "c3",
              name: "type_secret",
              arguments: { selector: 'input[name="pass"]', secret: "rec_password" },
            },
          ],
        },
        // The page echoes the password as text: the recording must not keep it.
        { tool_calls: [{ id: "c4", name: "click", arguments: { selector: "#login button" } }] },
        { tool_calls: [{ id: "c5", name: "open_tab", arguments: { url: page("/hello") } }] },
        { text: "Done." },
      ]);
      const conv = await createConversation(key, { recording: true });
      const view = await api(`/v1/conversations/${conv}`);
      expect(((await view.json()) as { recording: boolean }).recording).toBe(true);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "Go" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      expect(events.at(-1)?.data.type).toBe("RUN_FINISHED");

      // The page's last batches reach storage within a few seconds of the run's end.
      const list = await eventually(async () => {
        const l = await recordings(conv);
        return l.data.length === 2 && l.data.every((r) => r.events > 2) ? l : null;
      }, 30_000);
      expect(list.status).toBe(200);
      expect(list.data.map((r) => r.tab_id).sort()).toEqual([1, 2]);
      const first = list.data.find((r) => r.tab_id === 1)!;
      expect(first.url).toContain("/browser/form");
      expect(first.events).toBeGreaterThan(2);
      expect(first.truncated).toBe(false);

      const tab1 = await eventsOf(conv, first.id);
      expect(tab1).toHaveLength(first.events);
      // A full snapshot of the form, later changes, and a second full snapshot after the submit.
      expect(tab1.filter((e) => e.type === FULL_SNAPSHOT).length).toBeGreaterThanOrEqual(2);
      expect(tab1.some((e) => e.type === INCREMENTAL)).toBe(true);
      const text = JSON.stringify(tab1);
      expect(text).toContain("Sign in");
      expect(text).toContain("Welcome");
      // The page echoes the password after the submit: the recording keeps its marker, not the value.
      expect(text).not.toContain(SECRET);
      expect(text).toContain("<secret:rec_password>");
      // What was typed into the form is masked (the result page then prints the name as text).
      const submitted = tab1.findLastIndex((e) => e.type === FULL_SNAPSHOT);
      const beforeSubmit = JSON.stringify(tab1.slice(0, submitted));
      expect(beforeSubmit).toContain("Sign in");
      expect(beforeSubmit).not.toContain(PERSON_TYPED);
      expect(beforeSubmit).toMatch(/"text":"\*{5,}"/);

      const second = list.data.find((r) => r.tab_id === 2)!;
      expect(JSON.stringify(await eventsOf(conv, second.id))).toContain("Hello");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it("records nothing when recording is off, and refuses other workspaces and bad ids", async () => {
    const conv = await createConversation(uniqueKey("no-recording"));
    expect((await recordings(conv)).data).toEqual([]);
    const other = await newWorkspaceKey("rec-other");
    expect((await recordings(conv, other.key)).status).toBe(404);
    expect((await api(`/v1/conversations/${conv}/recordings/rec_nope`)).status).toBe(404);
    const bad = await api(`/v1/conversations/${conv}/recordings/..%2Fx`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBeTypeOf("string");
  });

  it(
    "deletes a recording on request, with the conversation, and after the retention",
    async () => {
      const key = uniqueKey("rec-delete");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/hello") } }] },
        { tool_calls: [{ id: "c2", name: "open_tab", arguments: { url: page("/browser/form") } }] },
        { text: "Done." },
      ]);
      const conv = await createConversation(key, { recording: true });
      await readSse(
        await api(`/v1/conversations/${conv}/messages`, { method: "POST", json: { content: "Go" } }),
        untilRunEnd,
        60_000,
      );
      const [a, b] = (await recordings(conv)).data;
      const del = await api(`/v1/conversations/${conv}/recordings/${a.id}`, { method: "DELETE" });
      expect(await del.json()).toEqual({ id: a.id, deleted: true });
      expect((await api(`/v1/conversations/${conv}/recordings/${a.id}`)).status).toBe(404);
      expect((await recordings(conv)).data.map((r) => r.id)).toEqual([b.id]);

      // Retention: nothing is due today; 31 days on, the recording goes.
      const ttl = 30 * DAY;
      const today = await sweepExpiredRecordings(env.FILES, Date.now(), ttl);
      expect(today.deleted_recordings).toBe(0);
      const later = await sweepExpiredRecordings(env.FILES, Date.now() + 31 * DAY, ttl);
      expect(later.deleted_recordings).toBeGreaterThanOrEqual(1);
      expect((await recordings(conv)).data).toEqual([]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    "deletes a conversation's recordings with it",
    async () => {
      const key = uniqueKey("rec-conv-delete");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/hello") } }] },
        { text: "Done." },
      ]);
      const conv = await createConversation(key, { recording: true });
      await readSse(
        await api(`/v1/conversations/${conv}/messages`, { method: "POST", json: { content: "Go" } }),
        untilRunEnd,
        60_000,
      );
      expect((await recordings(conv)).data).toHaveLength(1);
      expect((await api(`/v1/conversations/${conv}`, { method: "DELETE" })).status).toBe(200);
      const left = await env.FILES.list({ prefix: `recordings/default/${conv}/` });
      expect(left.objects).toEqual([]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
