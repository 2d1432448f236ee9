import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SseReader } from "../../../support/sse";
import { api, conversationObject, createConversation, eventually } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, liveTabs, ok, page } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

interface Frame {
  data: string;
  width: number;
  height: number;
  timestamp: number;
}

/** Opens a tab's live view and hands back a reader of its frames. */
async function openLive(conv: string, tab = 1) {
  const res = await api(`/v1/conversations/${conv}/tabs/${tab}/live`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const sse = new SseReader<Frame>(res.body!);
  const frames: Frame[] = [];
  /** Waits for the next frame (or fails after `ms`). */
  const next = async (ms = 15_000): Promise<Frame> => {
    const message = await sse.next(ms);
    if (!message) throw new Error("live view ended");
    frames.push(message.data);
    return message.data;
  };
  return { next, frames, close: () => sse.close() };
}

const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

const input = (conv: string, body: unknown, tab = 1) =>
  api(`/v1/conversations/${conv}/tabs/${tab}/input`, { method: "POST", json: body });

/** Every value the conversation's SQLite holds, as one string. */
async function storedText(conv: string): Promise<string> {
  const stub = conversationObject(conv);
  return runInDurableObject(stub, (_obj, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .toArray();
    return tables.map((t) => JSON.stringify(sql.exec(`SELECT * FROM "${t.name}"`).toArray())).join("\n");
  });
}

describe("the live view of a tab", () => {
  it(
    "streams JPEG frames, and a click through the input route is a trusted click that shows in the next frame",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/trusted") });
      const live = await openLive(conv);
      const first = await live.next();
      const jpeg = bytesOf(first.data);
      expect([...jpeg.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect(first.width).toBeGreaterThan(300);
      expect(first.height).toBeGreaterThan(200);
      expect(Math.abs(first.timestamp - Date.now())).toBeLessThan(60_000);
      expect((await liveTabs(conv)).browser.live_viewers).toBe(1);

      // The button sits at CSS (100..300, 100..180); the frame may be scaled.
      const vp = await ok(conv, "execute_script", { target: "page", code: "[innerWidth, innerHeight]" });
      const [cssW] = vp.result as [number, number];
      const scale = first.width / cssW;
      const res = await input(conv, { type: "click", x: 200 * scale, y: 140 * scale });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      // The click changes the page, so a different frame follows (hover repaints may come first).
      let after = await live.next();
      while (after.data === first.data) after = await live.next();
      expect(after.data).not.toBe(first.data);
      const read = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(read.content).toContain("clicks: click:true");

      expect((await input(conv, { type: "dblclick", x: 200 * scale, y: 140 * scale })).status).toBe(200);
      await eventually(async () =>
        ((await ok(conv, "get_tab_content", { tab_id: 1 })).content as string).includes("dblclick:true"),
      );
      await live.close();
      await eventually(async () => (await liveTabs(conv)).browser.live_viewers === 0);
    },
    T,
  );

  it(
    "sends at most LIVE_VIEW_MAX_FPS frames a second of a page that repaints all the time",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/animated") });
      const live = await openLive(conv);
      await live.next();
      const start = Date.now();
      while (Date.now() - start < 2_000) await live.next();
      const seconds = (Date.now() - start) / 1000;
      const count = live.frames.length - 1;
      await live.close();
      // Frames keep coming (each one was acknowledged) and never faster than 10 a second.
      expect(count).toBeGreaterThanOrEqual(4);
      expect(count / seconds).toBeLessThanOrEqual(10.5);
    },
    T,
  );

  it(
    "types and presses keys as trusted input, and nothing typed appears in events or storage",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/trusted") });
      const typed = "hunter2-person-typed-7f3a";
      expect((await input(conv, { type: "click", x: 150, y: 260 })).status).toBe(200);
      expect((await input(conv, { type: "type", text: typed })).status).toBe(200);
      expect((await input(conv, { type: "key", key: "Enter" })).status).toBe(200);
      const value = await ok(conv, "execute_script", {
        target: "page",
        code: "document.getElementById('field').value.length",
      });
      expect(value.result).toBe(typed.length);
      const keys = await ok(conv, "get_tab_content", { tab_id: 1 });
      expect(keys.content).toContain("keys: trusted=true last=Enter");
      expect((await input(conv, { type: "scroll", x: 10, y: 10, delta_y: 500 })).status).toBe(200);
      await eventually(async () => {
        const y = await ok(conv, "execute_script", { target: "page", code: "scrollY" });
        return (y.result as number) >= 400;
      });
      for (const move of [
        { type: "move", x: 20, y: 20 },
        { type: "down", x: 20, y: 20 },
        { type: "up", x: 20, y: 20, button: "left" },
      ])
        expect((await input(conv, move)).status).toBe(200);

      // The whole replay comes before the first heartbeat.
      const events = new SseReader((await api(`/v1/conversations/${conv}/events?after=0`)).body!);
      await events.untilText(": heartbeat");
      await events.close();
      expect(events.text).not.toContain(typed);
      expect(await storedText(conv)).not.toContain(typed);
    },
    T,
  );

  it(
    "refuses unknown input types and out-of-range values with a 400, and unknown tabs with a 404",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/browser/trusted") });
      const refused = async (body: unknown, code: string, status = 400) => {
        const res = await input(conv, body);
        expect(res.status).toBe(status);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
      };
      await refused({ type: "swipe", x: 1, y: 1 }, "invalid_request");
      await refused({ type: "click", x: 10 }, "invalid_request");
      await refused({ type: "click", x: -1, y: 10 }, "invalid_request");
      await refused({ type: "click", x: 10, y: 10, button: "fourth" }, "invalid_request");
      await refused({ type: "click", x: 5000, y: 10 }, "out_of_range");
      await refused({ type: "move", x: 10, y: 4000 }, "out_of_range");
      await refused({ type: "type", text: "" }, "invalid_request");
      await refused({ type: "key", key: "NoSuchKey" }, "invalid_key");
      await refused({ type: "scroll", x: 1, y: 1 }, "invalid_request");
      await refused({ type: "scroll", delta_y: 1e9 }, "invalid_request");
      const missing = await input(conv, { type: "click", x: 1, y: 1 }, 99);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
      const noLive = await api(`/v1/conversations/${conv}/tabs/99/live`);
      expect(noLive.status).toBe(404);
      expect((await api("/v1/conversations/conv_nope/tabs/1/live")).status).toBe(404);
    },
    T,
  );
});
