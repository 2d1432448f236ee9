/**
 * The workspace's usage ledger in SQLite: tokens, dollars and ended runs per UTC day, model and
 * conversation, as the conversations report them. It answers the daily budget and the Usage page.
 */
import type { UsageEntry, UsageReport, UsageTotals } from "../../schemas/usage";
import { addColumn } from "../engine/store/migrations";

/** Sources listed in one report (the count of all is reported beside them). */
export const MAX_REPORT_SOURCES = 500;
/** Longest range one report covers. */
export const MAX_REPORT_DAYS = 366;
/** Rows one CSV export holds; a range with more is refused (narrow it). */
export const MAX_CSV_ROWS = 100_000;

/** The CSV export's columns, in order. */
export const CSV_COLUMNS = [
  "day",
  "model",
  "conversation_id",
  "job_id",
  "runs",
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "total_tokens",
  "cost_usd",
  "unpriced_tokens",
  "browser_seconds",
] as const;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

interface TotalsRow extends Record<string, SqlStorageValue> {
  runs: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cost_usd: number;
  priced_tokens: number;
  unpriced_tokens: number;
  browser_seconds: number;
}

const SUMS = `SUM(runs) AS runs, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
  SUM(cached_input_tokens) AS cached_input_tokens, SUM(cost_usd) AS cost_usd,
  SUM(priced_tokens) AS priced_tokens, SUM(unpriced_tokens) AS unpriced_tokens,
  SUM(browser_seconds) AS browser_seconds`;

function totals(r: TotalsRow | undefined): UsageTotals {
  const input = r?.input_tokens ?? 0;
  const output = r?.output_tokens ?? 0;
  const unpriced = r?.unpriced_tokens ?? 0;
  const priced = r?.priced_tokens ?? 0;
  const browser = r?.browser_seconds ?? 0;
  return {
    runs: r?.runs ?? 0,
    input_tokens: input,
    output_tokens: output,
    cached_input_tokens: r?.cached_input_tokens ?? 0,
    total_tokens: input + output,
    cost_usd:
      unpriced > 0 && priced === 0 && browser === 0 ? null : Math.round((r?.cost_usd ?? 0) * 1e6) / 1e6,
    unpriced_tokens: unpriced,
    browser_seconds: Math.round(browser * 1000) / 1000,
  };
}

/** Every day from `from` to `to`, both included. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(utcDay(t));
  return out;
}

/** Creates the daily usage table: the object's schema steps call it. */
export function createUsageTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS usage_daily (
    day TEXT NOT NULL, conversation_id TEXT NOT NULL, job_id TEXT, model TEXT NOT NULL,
    runs INTEGER NOT NULL DEFAULT 0, input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0, cached_input_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0, priced_tokens INTEGER NOT NULL DEFAULT 0,
    unpriced_tokens INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, conversation_id, model))`);
}

/** Adds the browser time column (schema step 3): seconds of the workspace's browsers per row. */
export function addUsageBrowserSeconds(sql: SqlStorage): void {
  addColumn(sql, "usage_daily", "browser_seconds", "REAL NOT NULL DEFAULT 0");
}

/** Reads and writes the usage ledger. */
export class UsageLedger {
  constructor(private readonly sql: SqlStorage) {}

  /** Adds one report (a model call's tokens and cost, browser time and its cost, or an ended run); returns the day's dollars. */
  record(e: UsageEntry): number {
    const day = utcDay(e.at);
    const tokens = e.input_tokens + e.output_tokens;
    const priced = e.cost_usd === null ? 0 : tokens;
    this.sql.exec(
      `INSERT INTO usage_daily (day, conversation_id, job_id, model, runs, input_tokens, output_tokens,
         cached_input_tokens, cost_usd, priced_tokens, unpriced_tokens, browser_seconds)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, conversation_id, model) DO UPDATE SET runs = runs + excluded.runs,
         input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
         cached_input_tokens = cached_input_tokens + excluded.cached_input_tokens,
         cost_usd = cost_usd + excluded.cost_usd, priced_tokens = priced_tokens + excluded.priced_tokens,
         unpriced_tokens = unpriced_tokens + excluded.unpriced_tokens,
         browser_seconds = browser_seconds + excluded.browser_seconds`,
      day,
      e.conversation_id,
      e.job_id,
      e.model,
      e.runs,
      e.input_tokens,
      e.output_tokens,
      e.cached_input_tokens,
      e.cost_usd ?? 0,
      priced,
      tokens - priced,
      e.browser_seconds ?? 0,
    );
    return this.spentOn(day);
  }

  /** Dollars spent on a UTC day (priced tokens only). */
  spentOn(day: string): number {
    const r = this.sql
      .exec<{ c: number | null }>("SELECT SUM(cost_usd) AS c FROM usage_daily WHERE day = ?", day)
      .one();
    return Math.round((r.c ?? 0) * 1e6) / 1e6;
  }

  /** The report for `from`..`to` (UTC days, both included). */
  report(from: string, to: string): UsageReport {
    const where = "WHERE day >= ? AND day <= ?";
    const q = <T extends Record<string, SqlStorageValue>>(sql: string) =>
      this.sql.exec<T>(sql, from, to).toArray();
    const byDay = new Map(
      q<TotalsRow & { day: string }>(`SELECT day, ${SUMS} FROM usage_daily ${where} GROUP BY day`).map(
        (r) => [r.day, r],
      ),
    );
    const models = q<TotalsRow & { model: string }>(
      `SELECT model, ${SUMS} FROM usage_daily ${where} GROUP BY model ORDER BY SUM(cost_usd) DESC, model`,
    );
    // Titles come from the workspace's conversation index (same database; null once deleted).
    const sources = q<TotalsRow & { conversation_id: string; job_id: string | null; title: string | null }>(
      `SELECT conversation_id, MAX(job_id) AS job_id,
         (SELECT title FROM conversations c WHERE c.id = conversation_id) AS title, ${SUMS}
       FROM usage_daily ${where}
       GROUP BY conversation_id ORDER BY SUM(cost_usd) DESC, SUM(input_tokens + output_tokens) DESC
       LIMIT ${MAX_REPORT_SOURCES}`,
    );
    const jobs = q<TotalsRow & { job_id: string }>(
      `SELECT job_id, ${SUMS} FROM usage_daily ${where} AND job_id IS NOT NULL
       GROUP BY job_id ORDER BY SUM(cost_usd) DESC, SUM(input_tokens + output_tokens) DESC, job_id
       LIMIT ${MAX_REPORT_SOURCES}`,
    );
    const count = (col: string) =>
      this.sql
        .exec<{ n: number }>(`SELECT COUNT(DISTINCT ${col}) AS n FROM usage_daily ${where}`, from, to)
        .one().n;
    return {
      from,
      to,
      total: totals(q<TotalsRow>(`SELECT ${SUMS} FROM usage_daily ${where}`)[0]),
      days: daysBetween(from, to).map((day) => ({ day, ...totals(byDay.get(day)) })),
      models: models.map((r) => ({ model: r.model, ...totals(r) })),
      sources: sources.map((r) => ({
        conversation_id: r.conversation_id,
        job_id: r.job_id,
        title: r.title,
        ...totals(r),
      })),
      sources_total: count("conversation_id"),
      jobs: jobs.map((r) => ({ job_id: r.job_id, ...totals(r) })),
      jobs_total: count("job_id"),
    };
  }

  /** Every ledger row of the range as CSV lines (header first), or null when there are more than {@link MAX_CSV_ROWS}. */
  csv(from: string, to: string): string | null {
    const rows = this.sql
      .exec<TotalsRow & { day: string; model: string; conversation_id: string; job_id: string | null }>(
        `SELECT day, model, conversation_id, job_id, ${SUMS} FROM usage_daily WHERE day >= ? AND day <= ?
         GROUP BY day, conversation_id, model ORDER BY day, model, conversation_id LIMIT ?`,
        from,
        to,
        MAX_CSV_ROWS + 1,
      )
      .toArray();
    if (rows.length > MAX_CSV_ROWS) return null;
    const lines = rows.map((r) => {
      const t = totals(r);
      return [
        r.day,
        r.model,
        r.conversation_id,
        r.job_id ?? "",
        t.runs,
        t.input_tokens,
        t.output_tokens,
        t.cached_input_tokens,
        t.total_tokens,
        t.cost_usd ?? "",
        t.unpriced_tokens,
        t.browser_seconds,
      ]
        .map(csvCell)
        .join(",");
    });
    return `${[CSV_COLUMNS.join(","), ...lines].join("\r\n")}\r\n`;
  }
}

/** One CSV cell: quoted when it holds a comma, quote or line break; formula starts are defused. */
function csvCell(v: string | number): string {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === "string") s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
