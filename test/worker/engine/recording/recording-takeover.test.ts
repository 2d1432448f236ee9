import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, page, tool } from "../browser/browser-helpers";

const PASSWORD = "correct horse";
const USER = "erin-typed-by-hand";
/** rrweb: an incremental event (3) whose source 5 is an input's value. */
const INCREMENTAL = 3;
const INPUT_SOURCE = 5;

interface RrwebEvent {
  type: number;
  data: { source?: number; text?: string; href?: string };
}

const input = (conv: string, body: unknown) =>
  api(`/v1/conversations/${conv}/tabs/1/input`, { method: "POST", json: body });

/** Where the login form's fields are, read through the page (as the live view's person sees them). */
async function fieldPoints(conv: string): Promise<number[][]> {
  const res = await api(`/v1/conversations/${conv}/tools/execute_script`, {
    method: "POST",
    json: {
      arguments: {
        target: "page",
        code: "['user','pass'].map((i) => { const r = document.getElementById(i).getBoundingClientRect(); return [r.x + 5, r.y + 5]; })",
      },
    },
  });
  return ((await res.json()) as { result: { result: number[][] } }).result.result;
}

/** The address the tab's page shows now, read through the page. */
async function pageUrl(conv: string): Promise<string | null> {
  const reply = await tool(conv, "execute_script", { target: "page", code: "location.href" });
  return reply.status === 200 ? ((reply.result as { result?: string }).result ?? null) : null;
}

async function recordingEvents(conv: string, id: string): Promise<RrwebEvent[]> {
  const out: RrwebEvent[] = [];
  let cursor: string | null = "0";
  while (cursor !== null) {
    const res = await api(`/v1/conversations/${conv}/recordings/${id}?cursor=${cursor}`);
    const body = (await res.json()) as { events: RrwebEvent[]; next_cursor: string | null };
    out.push(...body.events);
    cursor = body.next_cursor;
  }
  return out;
}

describe("recording during a take-over", () => {
  it(
    "records the page a person signs in on, but not what they typed into the form",
    async () => {
      const key = uniqueKey("rec-takeover");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/browser/login") } }] },
        { tool_calls: [{ id: "c2", name: "request_takeover", arguments: { reason: "Please sign in." } }] },
        { text: "Thanks." },
      ]);
      const conv = await createConversation(key, { recording: true });
      const stream = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      await eventually(async () => (await getConversation(conv)).status === "waiting_for_user", 30_000);
      const [[ux, uy], [px, py]] = await fieldPoints(conv);
      for (const step of [
        { type: "click", x: ux, y: uy },
        { type: "type", text: USER },
        { type: "click", x: px, y: py },
        { type: "type", text: PASSWORD },
        { type: "key", key: "Enter" },
      ])
        expect((await input(conv, step)).status).toBe(200);
      // The person sees the account page the sign-in led to before handing back.
      await eventually(async () => (await pageUrl(conv)) === page("/browser/account"), 30_000);
      // The person hands back (on a loaded machine TAKEOVER_TIMEOUT_MS, 6 s here, may have ended it first).
      const done = await api(`/v1/conversations/${conv}/takeover/c2/done`, { method: "POST", json: {} });
      const handedBack = (await done.json()) as { url?: string; error?: { code: string } };
      if (done.status === 200) expect(handedBack.url).toBe(page("/browser/account"));
      else expect(handedBack.error?.code).toBe("no_pending_takeover");
      const events = await readSse(stream, untilRunEnd, 60_000);
      expect(events.at(-1)?.data.type).toBe("RUN_FINISHED");

      // The recording reaches the account page the sign-in led to.
      const recorded = await eventually(
        async () => {
          const list = (await (await api(`/v1/conversations/${conv}/recordings`)).json()) as {
            data: { id: string }[];
          };
          if (list.data.length !== 1) return null;
          const all = await recordingEvents(conv, list.data[0].id);
          return JSON.stringify(all).includes(`Signed in as ${USER}`) ? all : null;
        },
        30_000,
        200,
      );
      const text = JSON.stringify(recorded);
      expect(text).toContain("Sign in");
      expect(text).not.toContain(PASSWORD);
      // The person's typing reached the recording only as masked input values.
      const inputs = recorded.filter((e) => e.type === INCREMENTAL && e.data.source === INPUT_SOURCE);
      expect(inputs.length).toBeGreaterThanOrEqual(1);
      for (const e of inputs) expect(e.data.text).toMatch(/^\*+$/);
      // Before the account page (which prints the name it was sent), the name is nowhere.
      const signedIn = recorded.findIndex((e) => JSON.stringify(e).includes(`Signed in as ${USER}`));
      expect(JSON.stringify(recorded.slice(0, signedIn))).not.toContain(USER);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
