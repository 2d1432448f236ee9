/** The workspace's usage report: runs, tokens and dollars per day, model and conversation or job; CSV too. */
import { createRoute } from "@hono/zod-openapi";
import { MAX_CSV_ROWS, MAX_REPORT_DAYS, utcDay } from "../../durable-objects/workspace/usage-ledger";
import { browserFleetStub } from "../../durable-objects/addresses/browser-fleet";
import type { BrowserFleetObject } from "../../durable-objects/browser-fleet/browser-fleet-object";
import { fleetLimits } from "../../durable-objects/engine/config/browser-config";
import { BrowserFleetReport, UsageQuery, UsageReport } from "../../schemas/usage";
import { createApp } from "../app-factory";
import { ApiError } from "../errors";
import { workspaceStub } from "../stubs";
import { commonErrors, json } from "./route-helpers";

const DAY_MS = 86_400_000;
const app = createApp();

/** The range asked for, checked: from ≤ to, at most MAX_REPORT_DAYS days. */
function range(q: { from?: string; to?: string }): { from: string; to: string } {
  const to = q.to ?? utcDay(Date.now());
  const from = q.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw new ApiError(400, "invalid_range", `from (${from}) is after to (${to}).`);
  if (days > MAX_REPORT_DAYS)
    throw new ApiError(400, "invalid_range", `The range covers ${days} days; at most ${MAX_REPORT_DAYS}.`);
  return { from, to };
}

app.openapi(
  createRoute({
    method: "get",
    path: "/usage",
    summary:
      "Runs, tokens and cost per UTC day, per model and per conversation or job (format=csv for a CSV file)",
    tags: ["Usage"],
    request: { query: UsageQuery },
    responses: {
      200: {
        content: {
          "application/json": { schema: UsageReport },
          "text/csv": { schema: { type: "string" as const } },
        },
        description: "The report",
      },
      ...commonErrors,
    },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const { from, to } = range(q);
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    if (q.format === "csv") {
      const csv = await stub.usageCsv(from, to);
      if (csv === null)
        throw new ApiError(
          400,
          "range_too_large",
          `The range holds more than ${MAX_CSV_ROWS} rows; export a shorter range.`,
        );
      return c.body(csv, 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="cirrus-usage-${from}-to-${to}.csv"`,
      });
    }
    return c.json((await stub.usageReport(from, to)) as UsageReport, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/usage/browsers",
    summary:
      "The workspace's browser fleet now: browsers alive, contexts, waits for a browser, launches, today's browser time, limits",
    tags: ["Usage"],
    responses: { 200: json(BrowserFleetReport, "The fleet's counters"), ...commonErrors },
  }),
  async (c) => {
    const fleet = browserFleetStub(
      c.env,
      c.get("principal").workspaceId,
    ) as unknown as DurableObjectStub<BrowserFleetObject>;
    const s = await fleet.stats();
    const l = fleetLimits(c.env);
    const report: BrowserFleetReport = {
      sessions: s.sessions,
      contexts: s.contexts,
      spares: s.spares,
      waiting: s.waiting,
      queued_calls: s.queued,
      launches: s.launches,
      peak_sessions: s.peak,
      browser_seconds_today: Math.round(s.used_today_ms) / 1000,
      waits: s.waits,
      limits: {
        max_sessions: l.maxSessions,
        contexts_per_session: l.contextsPerSession,
        launch_interval_ms: l.launchIntervalMs,
        daily_minutes: l.dailyMs / 60_000,
        queue_timeout_ms: l.queueTimeoutMs,
        idle_ms: l.idleMs,
        hour_price_usd: l.hourPriceUsd,
      },
    };
    return c.json(report, 200);
  },
);

export default app;
