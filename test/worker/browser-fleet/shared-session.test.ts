import { describe, expect, it } from "vitest";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, sessionIdOf } from "../engine/browser/browser-helpers";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

/** The first frame of a tab's live view (a JPEG, base64), then the stream is closed. */
async function firstFrame(conv: string, tab: number): Promise<{ data: string; width: number }> {
  const res = await api(`/v1/conversations/${conv}/tabs/${tab}/live`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      // Only whole lines: a frame's line may come in several chunks.
      const lines = buffer.split("\n").slice(0, -1);
      const line = lines.find((l) => l.startsWith("data: ") && l.includes('"data"'));
      if (line) return JSON.parse(line.slice(6));
      const chunk = await reader.read();
      if (chunk.done) throw new Error("live view ended before a frame");
      buffer += chunk.value;
    }
  } finally {
    await reader.cancel();
  }
}

const input = (conv: string, body: unknown) =>
  api(`/v1/conversations/${conv}/tabs/1/input`, { method: "POST", json: body });

/** Where an element of tab 1 is, in CSS pixels. */
async function centre(conv: string, id: string): Promise<[number, number]> {
  const r = await ok(conv, "execute_script", {
    target: "page",
    code: `(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect(); return [r.x + 5, r.y + 5]; })()`,
  });
  return r.result as [number, number];
}

describe("a conversation whose tab lives in a shared browser", () => {
  it(
    "streams its own tab's frames and takes a person's clicks into its tab only",
    async () => {
      const a = await createConversation("echo");
      const b = await createConversation("echo");
      await ok(a, "open_tab", { url: page("/browser/trusted") });
      await ok(b, "open_tab", { url: page("/browser/trusted") });
      expect(await sessionIdOf(a)).not.toBeNull();
      expect(await sessionIdOf(a)).toBe(await sessionIdOf(b));

      const frame = await firstFrame(a, 1);
      const jpeg = Uint8Array.from(atob(frame.data), (c) => c.charCodeAt(0));
      expect([...jpeg.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // The button sits at CSS (100..300, 100..180); the frame may be scaled.
      const vp = await ok(a, "execute_script", { target: "page", code: "innerWidth" });
      const scale = frame.width / (vp.result as number);
      const res = await input(a, { type: "click", x: 200 * scale, y: 140 * scale });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect((await ok(a, "get_tab_content", { tab_id: 1 })).content).toContain("clicks: click:true");
      expect((await ok(b, "get_tab_content", { tab_id: 1 })).content).toContain("clicks: none");
      // The other conversation's live view shows its own tab.
      expect((await firstFrame(b, 1)).data).not.toBe("");
    },
    T,
  );

  it(
    "hands its tab over to a person who signs in; the login stays in its own context",
    async () => {
      const other = await createConversation("echo");
      await ok(other, "open_tab", { url: page("/hello") });
      const key = uniqueKey("shared-takeover");
      await script(key, [
        { tool_calls: [{ id: "call_open", name: "open_tab", arguments: { url: page("/browser/login") } }] },
        {
          tool_calls: [{ id: "call_takeover", name: "request_takeover", arguments: { reason: "Sign in." } }],
        },
        { text: "Signed in." },
      ]);
      const id = await createConversation(key);
      const stream = await api(`/v1/conversations/${id}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = readSse(stream, untilRunEnd, 60_000);
      await eventually(async () => (await getConversation(id)).status === "waiting_for_user", 30_000);
      expect(await sessionIdOf(id)).toBe(await sessionIdOf(other));

      const [ux, uy] = await centre(id, "user");
      const [px, py] = await centre(id, "pass");
      for (const step of [
        { type: "click", x: ux, y: uy },
        { type: "type", text: "erin" },
        { type: "click", x: px, y: py },
        { type: "type", text: "correct horse" },
        { type: "key", key: "Enter" },
      ])
        expect((await input(id, step)).status).toBe(200);
      await eventually(async () => {
        const where = await ok(id, "execute_script", { target: "page", code: "location.pathname" });
        return where.result === "/browser/account";
      });
      const res = await api(`/v1/conversations/${id}/takeover/call_takeover/done`, {
        method: "POST",
        json: {},
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: "done",
        url: page("/browser/account"),
        title: "Account of erin",
      });
      expect((await events).at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "Signed in." });

      // The conversation sharing the browser is not signed in.
      const theirs = await ok(other, "open_tab", { url: page("/browser/account") });
      expect((await ok(other, "get_tab_content", { tab_id: theirs.id })).content).toContain("Not signed in");
    },
    T,
  );
});
