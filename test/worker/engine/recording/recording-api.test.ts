import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../../worker/index";
import { api, createConversation, eventually, newWorkspaceKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page } from "../browser/browser-helpers";

const DAY = 86_400_000;
/** RECORDING_MAX_BYTES of the test bindings (vitest.config.ts). */
const MAX_BYTES = 1024 * 1024;
/** rrweb event types: 2 is a full snapshot of the page, 3 an incremental change. */
const FULL_SNAPSHOT = 2;

interface Recording {
  id: string;
  tab_id: number;
  url: string;
  started_at: number;
  ended_at: number;
  size: number;
  events: number;
  chunks: number;
  truncated: boolean;
  expires_at: number;
}
interface EventsPage {
  recording: Recording;
  events: { type: number; timestamp: number; data: unknown }[];
  has_more: boolean;
  next_cursor: string | null;
}

const list = async (conv: string, token?: string) =>
  (
    (await (await api(`/v1/conversations/${conv}/recordings`, token ? { token } : {})).json()) as {
      data: Recording[];
    }
  ).data;

const eventsPage = async (conv: string, id: string, cursor: string) => {
  const res = await api(`/v1/conversations/${conv}/recordings/${id}?cursor=${cursor}`);
  expect(res.status).toBe(200);
  return (await res.json()) as EventsPage;
};

/** Every page of a recording's events, and the recording as the last page saw it. */
async function allEvents(conv: string, id: string) {
  const pages: EventsPage[] = [];
  let cursor: string | null = "0";
  while (cursor !== null) {
    const p = await eventsPage(conv, id, cursor);
    pages.push(p);
    expect(p.has_more).toBe(p.next_cursor !== null);
    cursor = p.next_cursor;
  }
  return { pages, events: pages.flatMap((p) => p.events), recording: pages.at(-1)!.recording };
}

/** Fires the Cron Trigger as the runtime would, at `at`. */
async function cronAt(at: number): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/10 * * * *", scheduledTime: at }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** A conversation with recording on and one recorded tab whose events reached storage. */
async function recordedTab(path: string, ready: (r: Recording) => boolean = (r) => r.events > 2) {
  const conv = await createConversation("echo", { recording: true });
  await ok(conv, "open_tab", { url: page(path) });
  const recording = await eventually(async () => (await list(conv)).find(ready), 30_000, 200);
  return { conv, recording };
}

describe("the recordings API", () => {
  it(
    "lists each recording with its fields, and a navigation adds the new page's full snapshot to it",
    async () => {
      const before = Date.now();
      const { conv } = await recordedTab("/recording/site?n=1");
      await ok(conv, "click", { selector: "#next" });
      const [rec] = await eventually(
        async () => {
          const l = await list(conv);
          return l[0] && JSON.stringify((await allEvents(conv, l[0].id)).events).includes("Page 2 of")
            ? l
            : null;
        },
        30_000,
        200,
      );
      expect(Object.keys(rec).sort()).toEqual(
        [
          "chunks",
          "ended_at",
          "events",
          "expires_at",
          "id",
          "size",
          "started_at",
          "tab_id",
          "truncated",
          "url",
        ].sort(),
      );
      expect(rec.id).toMatch(/^rec_/);
      expect(rec.tab_id).toBe(1);
      expect(rec.url).toBe(page("/recording/site?n=1"));
      expect(rec.started_at).toBeGreaterThanOrEqual(before);
      expect(rec.ended_at).toBeGreaterThanOrEqual(rec.started_at);
      expect(rec.expires_at).toBe(rec.ended_at + 30 * DAY);
      expect(rec.truncated).toBe(false);
      const all = await allEvents(conv, rec.id);
      expect(all.recording.id).toBe(rec.id);
      expect(all.events).toHaveLength(all.recording.events);
      expect(rec.size).toBeGreaterThan(1000);
      // A full snapshot of each document: page 1 (after the tab's blank start), then page 2 after the click.
      const snapshots = all.events.filter((e) => e.type === FULL_SNAPSHOT).map((e) => JSON.stringify(e));
      const first = snapshots.findIndex((s) => s.includes("Page 1 of the site"));
      expect(first).toBeGreaterThanOrEqual(0);
      expect(snapshots.findIndex((s) => s.includes("Page 2 of the site"))).toBeGreaterThan(first);
      // Events are in time order.
      const times = all.events.map((e) => e.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    "pages a large recording in chunks and says when it was cut at RECORDING_MAX_BYTES",
    async () => {
      const { conv, recording } = await recordedTab(
        "/recording/growing?blocks=80&kb=20&ms=25",
        (r) => r.truncated,
      );
      expect(recording.size).toBeLessThanOrEqual(MAX_BYTES);
      expect(recording.size).toBeGreaterThan(MAX_BYTES / 2);
      expect(recording.chunks).toBeGreaterThanOrEqual(2);
      const { pages, events, recording: final } = await allEvents(conv, recording.id);
      expect(pages).toHaveLength(final.chunks);
      expect(pages[0].next_cursor).toBe("1");
      expect(events).toHaveLength(final.events);
      const text = JSON.stringify(events);
      expect(text).toContain("block 1 lorem");
      // The page went on to 80 blocks of 20 KiB (1.6 MiB): the last ones are not in the recording.
      expect(text).not.toContain("block 80 lorem");
      const past = await api(`/v1/conversations/${conv}/recordings/${recording.id}?cursor=${final.chunks}`);
      expect(past.status).toBe(400);
      expect(((await past.json()) as { error: { code: string } }).error.code).toBe("invalid_cursor");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    "refuses callers without a key (401) and other workspaces (404) on every route",
    async () => {
      const { conv, recording } = await recordedTab("/hello");
      const routes = [
        ["GET", `/v1/conversations/${conv}/recordings`],
        ["GET", `/v1/conversations/${conv}/recordings/${recording.id}`],
        ["DELETE", `/v1/conversations/${conv}/recordings/${recording.id}`],
      ] as const;
      const other = await newWorkspaceKey("rec-stranger");
      for (const [method, path] of routes) {
        const anonymous = await api(path, { method, token: null });
        expect(anonymous.status).toBe(401);
        expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
        const stranger = await api(path, { method, token: other.key });
        expect(stranger.status).toBe(404);
        expect(((await stranger.json()) as { error: { code: string } }).error.code).toBe("not_found");
      }
      // Still there for its owner.
      expect((await list(conv)).map((r) => r.id)).toEqual([recording.id]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    "the Cron Trigger deletes recordings RECORDING_TTL_DAYS after their last write, not before",
    async () => {
      const { conv, recording } = await recordedTab("/hello");
      // Closed, so nothing more is written while the clock jumps.
      await ok(conv, "close_tab", { tab_id: 1 });
      const keys = async () =>
        (await env.FILES.list({ prefix: `recordings/default/${conv}/` })).objects.length;
      expect(await keys()).toBeGreaterThanOrEqual(2);
      await cronAt(Date.now() + 29 * DAY);
      expect((await list(conv)).map((r) => r.id)).toEqual([recording.id]);
      await cronAt(Date.now() + 31 * DAY);
      expect(await list(conv)).toEqual([]);
      expect(await keys()).toBe(0);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
  it(
    "keeps the click that leaves a page: it is sent at once, not in a batch the unloading page may lose",
    async () => {
      const { conv } = await recordedTab("/recording/site?n=1");
      await ok(conv, "click", { selector: "#next" });
      const snapshots = (events: { type: number }[]) =>
        events.flatMap((e, i) => (e.type === FULL_SNAPSHOT ? [i] : []));
      const { events } = await eventually(
        async () => {
          const [recording] = await list(conv);
          const all = await allEvents(conv, recording.id);
          return snapshots(all.events).length >= 2 ? all : null;
        },
        30_000,
        200,
      );
      // rrweb: an incremental event (3) of source MouseInteraction (2) and type Click (2).
      const onFirstPage = events.slice(0, snapshots(events)[1]);
      const clicks = onFirstPage.filter((e) => {
        const data = e.data as { source?: number; type?: number };
        return e.type === 3 && data.source === 2 && data.type === 2;
      });
      expect(clicks).toHaveLength(1);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
