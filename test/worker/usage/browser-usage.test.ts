import { describe, expect, it } from "vitest";
import type { JobRun } from "../../../schemas/jobs";
import type { BrowserFleetReport, UsageReport } from "../../../schemas/usage";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, page, setFleetMeta } from "../engine/browser/browser-helpers";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  newWorkspaceKey,
  llmUrl,
  readSse,
  release,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The default BROWSER_HOUR_PRICE_USD. */
const HOUR_PRICE = 0.09;
/** The default idle limit (BROWSER_IDLE_MS is not set in the test bindings). */
const IDLE_MS = 60_000;

/** A model that opens the test page, reads it and answers. */
async function browsingModel(key: string): Promise<void> {
  await script(
    key,
    [
      { tool_calls: [{ id: "o", name: "open_tab", arguments: { url: page("/hello") } }] },
      { tool_calls: [{ id: "r", name: "get_tab_content", arguments: { tab_id: 1 } }] },
      { text: "Read it." },
    ],
    true,
  );
}

async function report(token?: string): Promise<UsageReport> {
  const res = await api("/v1/usage", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as UsageReport;
}

describe("browser time in the usage report", () => {
  it(
    "shows each conversation's browser-seconds and their cost in the report and the CSV, as in the conversation's usage",
    async () => {
      const ws = await newWorkspaceKey("browser-usage");
      const key = uniqueKey("browser-usage");
      await browsingModel(key);
      const id = await createConversation(key, {}, ws.key);
      const stream = await api(`/v1/conversations/${id}/messages`, {
        method: "POST",
        json: { content: "go" },
        token: ws.key,
      });
      const events = (await readSse(stream, untilRunEnd, 60_000)).map((m) => m.data);
      expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
      const usage = ((await getConversation(id, ws.key)) as unknown as { usage: { browser_seconds: number } })
        .usage;
      expect(usage.browser_seconds).toBeGreaterThan(0);

      // The ledger is written in the background: wait until it holds the conversation's time.
      const row = await eventually(async () => {
        const r = (await report(ws.key)).sources.find((s) => s.conversation_id === id);
        return r && Math.abs(r.browser_seconds - usage.browser_seconds) < 0.01 ? r : null;
      });
      // The scripted model has no price: the row's dollars are the browser time's alone.
      expect(row.unpriced_tokens).toBeGreaterThan(0);
      expect(row.cost_usd).toBeCloseTo((row.browser_seconds / 3600) * HOUR_PRICE, 5);
      const r = await report(ws.key);
      expect(r.total.browser_seconds).toBe(row.browser_seconds);
      expect(r.days.at(-1)?.browser_seconds).toBe(row.browser_seconds);
      expect(r.models).toEqual([
        expect.objectContaining({ model: key, browser_seconds: row.browser_seconds }),
      ]);

      const csv = await api("/v1/usage?format=csv", { token: ws.key });
      expect(csv.status).toBe(200);
      const lines = (await csv.text()).trim().split("\r\n");
      expect(lines[0]).toBe(
        "day,model,conversation_id,job_id,runs,input_tokens,output_tokens,cached_input_tokens,total_tokens,cost_usd,unpriced_tokens,browser_seconds",
      );
      const cells = lines.find((l) => l.includes(id))?.split(",") ?? [];
      expect(cells.slice(1, 4)).toEqual([key, id, ""]);
      expect(Number(cells[11])).toBe(row.browser_seconds);
      expect(Number(cells[9])).toBe(row.cost_usd);
    },
    T,
  );

  it(
    "shows a job run's browser-seconds in the job's run ledger and under the job in the report",
    async () => {
      // Its own workspace: the default one's report is read by other files.
      const ws = await newWorkspaceKey("browser-job");
      const key = uniqueKey("browser-job");
      await browsingModel(key);
      const created = await api("/v1/jobs", {
        method: "POST",
        json: { name: "Browse", prompt: "Read the page.", schedule: "0 7 * * *", model: key },
        token: ws.key,
      });
      expect(created.status).toBe(201);
      const job = (await created.json()) as { id: string };
      expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST", token: ws.key })).status).toBe(202);
      const run = await eventually(async () => {
        const res = await api(`/v1/jobs/${job.id}/runs`, { token: ws.key });
        const first = ((await res.json()) as { data: JobRun[] }).data[0];
        return first && first.status !== "running" ? first : null;
      }, 60_000);
      expect(run.status).toBe("succeeded");
      const tokens = run.tokens as { browser_seconds?: number } | null;
      expect(tokens?.browser_seconds).toBeGreaterThan(0);
      const line = await eventually(async () => {
        const j = (await report(ws.key)).jobs.find((x) => x.job_id === job.id);
        return j && j.browser_seconds >= (tokens?.browser_seconds ?? 0) - 0.01 ? j : null;
      });
      expect(line.runs).toBe(1);
      expect(line.cost_usd).toBeCloseTo((line.browser_seconds / 3600) * HOUR_PRICE, 5);
    },
    T,
  );

  it(
    "charges a job run's browser time after its last call (until the run ended) to its run ledger entry, and closes its context",
    async () => {
      const ws = await newWorkspaceKey("browser-job-tail");
      const key = uniqueKey("browser-job-tail");
      // The model's last turn is held: the run goes on after its last browser call.
      await script(key, [
        { tool_calls: [{ id: "o", name: "open_tab", arguments: { url: page("/hello") } }] },
        { tool_calls: [{ id: "r", name: "get_tab_content", arguments: { tab_id: 1 } }] },
        { hang: true, text: "Read it." },
      ]);
      const created = await api("/v1/jobs", {
        method: "POST",
        json: { name: "Browse", prompt: "Read the page.", schedule: "0 7 * * *", model: key },
        token: ws.key,
      });
      const job = (await created.json()) as { id: string };
      expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST", token: ws.key })).status).toBe(202);
      await eventually(async () => {
        const res = await fetch(`${llmUrl()}/__scripts/${encodeURIComponent(key)}/held`);
        return ((await res.json()) as { held: number }).held === 1;
      }, 60_000);
      // The context stays open 30 s after the last call before the run ends (the session's time
      // since its last count moved back by 30 s).
      await runInDurableObject(fleetObject(ws.id), (_obj, state) => {
        state.storage.sql.exec("UPDATE fleet_sessions SET ticked_at = ticked_at - 30000");
      });
      await release(key);
      const run = await eventually(async () => {
        const res = await api(`/v1/jobs/${job.id}/runs`, { token: ws.key });
        const first = ((await res.json()) as { data: JobRun[] }).data[0];
        return first && first.status !== "running" ? first : null;
      }, 60_000);
      expect(run.status).toBe("succeeded");
      const tokens = run.tokens as { browser_seconds?: number; cost_usd?: number } | null;
      expect(tokens?.browser_seconds).toBeGreaterThanOrEqual(30);
      // Nobody follows an unattended run: its context closed when it ended (and the browser with it).
      await eventually(async () => {
        const fleet = await browsersOf(ws.key);
        return fleet.sessions === 0 && fleet.contexts === 0;
      }, 30_000);
      const conv = await getConversation(run.conversation_id!, ws.key);
      expect(conv.status).toBe("idle");
    },
    T,
  );

  it(
    "reports a context's time after the last call when the fleet's alarm closes it idle",
    async () => {
      const ws = await newWorkspaceKey("browser-idle-usage");
      const conv = await createConversation("echo", {}, ws.key);
      const opened = await api(`/v1/conversations/${conv}/tools/open_tab`, {
        method: "POST",
        json: { arguments: { url: page("/hello") } },
        token: ws.key,
      });
      expect(opened.status).toBe(200);
      const rowOf = async () => (await report(ws.key)).sources.find((s) => s.conversation_id === conv);
      const before = await eventually(async () => {
        const row = await rowOf();
        return row && row.browser_seconds > 0 ? row : null;
      });
      // The context stayed open 30 s more than counted so far, and is now idle past the limit.
      await runInDurableObject(fleetObject(ws.id), (_obj, state) => {
        state.storage.sql.exec("UPDATE fleet_sessions SET ticked_at = ticked_at - 30000");
      });
      await setFleetMeta(conv, "last_used", Date.now() - IDLE_MS - 1_000, ws.id);
      expect(await runDurableObjectAlarm(fleetObject(ws.id))).toBe(true);
      expect(await browsersOf(ws.key)).toMatchObject({ sessions: 0, contexts: 0 });
      const after = await eventually(async () => {
        const row = await rowOf();
        return row && row.browser_seconds >= before.browser_seconds + 30 ? row : null;
      });
      expect(after.cost_usd).toBeCloseTo((after.browser_seconds / 3600) * HOUR_PRICE, 5);
    },
    T,
  );
});

async function browsersOf(token: string): Promise<BrowserFleetReport> {
  const res = await api("/v1/usage/browsers", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as BrowserFleetReport;
}

describe("the workspace's browsers now", () => {
  it(
    "reports browsers alive, launches, waits and limits to the workspace's own key only",
    async () => {
      const ws = await newWorkspaceKey("fleet-report");
      const before = await api("/v1/usage/browsers", { token: ws.key });
      expect(before.status).toBe(200);
      expect(await before.json()).toMatchObject({
        sessions: 0,
        launches: 0,
        browser_seconds_today: 0,
        waits: { count: 0, sampled: 0, p50_ms: null, p95_ms: null },
        limits: {
          max_sessions: 2,
          contexts_per_session: 2,
          queue_timeout_ms: 4000,
          hour_price_usd: HOUR_PRICE,
        },
      });
      const conv = await createConversation("echo", {}, ws.key);
      const opened = await api(`/v1/conversations/${conv}/tools/open_tab`, {
        method: "POST",
        json: { arguments: { url: page("/hello") } },
        token: ws.key,
      });
      expect(opened.status).toBe(200);
      const after = (await (await api("/v1/usage/browsers", { token: ws.key })).json()) as BrowserFleetReport;
      expect(after).toMatchObject({ sessions: 1, contexts: 1, launches: 1, peak_sessions: 1 });
      expect(after.waits.count).toBe(1);
      expect(after.waits.p50_ms).toBeGreaterThan(0);
      // Another workspace's fleet is its own; no key, no report.
      const other = await newWorkspaceKey("fleet-report-other");
      expect(await (await api("/v1/usage/browsers", { token: other.key })).json()).toMatchObject({
        sessions: 0,
        launches: 0,
      });
      expect((await api("/v1/usage/browsers", { token: null })).status).toBe(401);
    },
    T,
  );
});
