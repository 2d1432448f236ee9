import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FleetStats } from "../../../durable-objects/browser-fleet/browser-fleet-object";
import {
  BROWSER_TEST_TIMEOUT_MS,
  fleetObject,
  ok,
  page,
  sessionIdOf,
  tool,
} from "../engine/browser/browser-helpers";
import {
  api,
  createConversation,
  getConversation,
  newWorkspaceKey,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The test bindings: 2 browsers × 2 contexts, a 4 s queue. */
const QUEUE_TIMEOUT_MS = 4_000;

const stats = (workspace = "default") =>
  runInDurableObject(fleetObject(workspace), (obj) => (obj as unknown as { stats(): FleetStats }).stats());

/** A browser call that keeps its conversation's context busy for `ms` (waits for an element that never comes). */
const busyFor = (conv: string, ms: number) =>
  tool(conv, "wait_for", { selector: "#never-there", timeout_ms: ms });

describe("the browser fleet", () => {
  it(
    "serves two conversations from one browser, each in its own context: cookies, storage and tabs stay apart",
    async () => {
      const a = await createConversation("echo");
      const b = await createConversation("echo");
      await ok(a, "open_tab", { url: page("/browser/set-state") });
      const mine = await ok(a, "open_tab", { url: page("/browser/show-state") });
      expect((await ok(a, "get_tab_content", { tab_id: mine.id })).content).toContain("session=abc123");
      const theirs = await ok(b, "open_tab", { url: page("/browser/show-state") });
      expect(await sessionIdOf(a)).toBe(await sessionIdOf(b));
      const read = await ok(b, "get_tab_content", { tab_id: theirs.id });
      expect(read.content).not.toContain("abc123");
      expect(read.content).not.toContain("theme: dark");
      expect((await ok(b, "list_tabs")).tabs.map((t: { url: string }) => t.url)).toEqual([
        page("/browser/show-state"),
      ]);
      expect((await ok(a, "list_tabs")).tabs).toHaveLength(2);
      expect((await stats()).sessions).toBe(1);
    },
    T,
  );

  it(
    "never holds more browsers than allowed: a call waits for a free context and gets it when one frees",
    async () => {
      const convs = await Promise.all([1, 2, 3, 4, 5].map(() => createConversation("echo")));
      for (const conv of convs.slice(0, 4)) await ok(conv, "open_tab", { url: page("/hello") });
      const before = (await stats()).queued;
      const holders = convs.slice(0, 4).map((conv) => busyFor(conv, 2_500));
      const waiting = tool(convs[4], "open_tab", { url: page("/hello") });
      const [held, late] = await Promise.all([Promise.all(holders), waiting]);
      expect(held.map((r) => r.error?.code)).toEqual(["timeout", "timeout", "timeout", "timeout"]);
      expect(late.status).toBe(200);
      expect(late.result.title).toBe("Hello");
      const after = await stats();
      expect(after.queued).toBeGreaterThan(before);
      expect(after.peak).toBeLessThanOrEqual(2);
      expect(after.sessions).toBeLessThanOrEqual(2);
      expect(after.contexts).toBeLessThanOrEqual(4);
    },
    T,
  );

  it(
    "answers browser_busy when no context frees within BROWSER_QUEUE_TIMEOUT_MS, and the run goes on",
    async () => {
      const convs = await Promise.all([1, 2, 3, 4].map(() => createConversation("echo")));
      for (const conv of convs) await ok(conv, "open_tab", { url: page("/hello") });
      const holders = convs.map((conv) => busyFor(conv, QUEUE_TIMEOUT_MS + 3_000));
      const key = uniqueKey("fleet-busy");
      await script(key, [
        { tool_calls: [{ id: "call_open", name: "open_tab", arguments: { url: page("/hello") } }] },
        { text: "The browser was busy; I answered without it." },
      ]);
      const id = await createConversation(key);
      const stream = await api(`/v1/conversations/${id}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = (await readSse(stream, untilRunEnd, 60_000)).map((m) => m.data);
      await Promise.all(holders);
      const queued = events.find((e) => e.type === "CUSTOM" && e.name === "browser_queued");
      expect(queued?.value).toEqual({ tool_call_id: "call_open", position: 1 });
      const result = events.find((e) => e.type === "TOOL_CALL_RESULT") as unknown as { content: string };
      expect(JSON.parse(result.content)).toMatchObject({ ok: false, error: { code: "browser_busy" } });
      expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    },
    T,
  );

  it(
    "refuses a new context once the day's browser minutes are used, with an error naming the budget",
    async () => {
      await runInDurableObject(fleetObject(), (_obj, state) => {
        state.storage.sql.exec(
          "INSERT OR REPLACE INTO fleet_days (day, ms) VALUES (?, ?)",
          new Date().toISOString().slice(0, 10),
          100_000 * 60_000,
        );
      });
      const conv = await createConversation("echo");
      const reply = await tool(conv, "open_tab", { url: page("/hello") });
      expect(reply.status).toBe(422);
      expect(reply.error?.code).toBe("browser_budget");
      expect(reply.error?.message).toMatch(/BROWSER_DAILY_MINUTES/);
      await runInDurableObject(fleetObject(), (_obj, state) => {
        state.storage.sql.exec("DELETE FROM fleet_days");
      });
      expect((await tool(conv, "open_tab", { url: page("/hello") })).status).toBe(200);
    },
    T,
  );
});

/** Calls a tool in another workspace. */
async function wsTool(token: string, conv: string, name: string, args: Record<string, unknown>) {
  const res = await api(`/v1/conversations/${conv}/tools/${name}`, {
    method: "POST",
    json: { arguments: args },
    token,
  });
  const body = (await res.json()) as {
    result?: { title?: string };
    error?: { code: string; message: string };
  };
  return { status: res.status, ...body };
}

/** Wraps the fleet's binding so the platform refuses the next `times` launches with 429 and Retry-After. */
async function refuseLaunches(workspace: string, times: number, retryAfterS: number) {
  await runInDurableObject(fleetObject(workspace), (obj) => {
    const fleet = obj as unknown as { binding: Fetcher; refused: number };
    const real = fleet.binding;
    fleet.refused = 0;
    fleet.binding = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (init?.method === "POST" && url.includes("/v1/devtools/browser") && fleet.refused < times) {
          fleet.refused++;
          return Promise.resolve(
            new Response("Too many browsers already running", {
              status: 429,
              headers: { "retry-after": String(retryAfterS) },
            }),
          );
        }
        return real.fetch(input as RequestInfo, init);
      },
    } as Fetcher;
  });
}

const refusedCount = (workspace: string) =>
  runInDurableObject(fleetObject(workspace), (obj) => (obj as unknown as { refused: number }).refused);

describe("the platform's refusals", () => {
  it(
    "retries a launch the platform refused with 429, honouring Retry-After",
    async () => {
      const ws = await newWorkspaceKey("fleet-429");
      await refuseLaunches(ws.id, 2, 0);
      const conv = await createConversation("echo", {}, ws.key);
      const reply = await wsTool(ws.key, conv, "open_tab", { url: page("/hello") });
      expect(reply.status).toBe(200);
      expect(reply.result?.title).toBe("Hello");
      expect(await refusedCount(ws.id)).toBe(2);
    },
    T,
  );

  it(
    "reports a refusal that lasts as an error naming the limit",
    async () => {
      const ws = await newWorkspaceKey("fleet-429-always");
      await refuseLaunches(ws.id, 1_000, 1);
      const conv = await createConversation("echo", {}, ws.key);
      const reply = await wsTool(ws.key, conv, "open_tab", { url: page("/hello") });
      expect(reply.status).toBe(422);
      expect(reply.error?.code).toBe("browser_limit");
      expect(reply.error?.message).toMatch(/429/);
      expect(reply.error?.message).toMatch(/BROWSER_MAX_SESSIONS/);
      expect(await refusedCount(ws.id)).toBeGreaterThanOrEqual(2);
    },
    T,
  );
});

describe("browser time", () => {
  it(
    "is metered per run and conversation in usage, priced into cost_usd",
    async () => {
      const key = uniqueKey("fleet-usage");
      await script(key, [
        { tool_calls: [{ id: "o", name: "open_tab", arguments: { url: page("/hello") } }] },
        { tool_calls: [{ id: "r", name: "get_tab_content", arguments: { tab_id: 1 } }] },
        { text: "Read it." },
      ]);
      const id = await createConversation(key);
      const stream = await api(`/v1/conversations/${id}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = (await readSse(stream, untilRunEnd, 60_000)).map((m) => m.data);
      expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
      const details = (await getConversation(id)) as unknown as {
        usage: { browser_seconds?: number; cost_usd: number | null };
      };
      expect(details.usage.browser_seconds).toBeGreaterThan(0);
      expect(details.usage.browser_seconds).toBeLessThan(120);
    },
    T,
  );
});
