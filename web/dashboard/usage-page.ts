/**
 * Usage (`GET /v1/usage`): runs, tokens and cost per UTC day as a chart, per model, job and
 * conversation, for the last 7, 30 or 90 days or a chosen range (`#/usage/7d`,
 * `#/usage/2026-11-01..2026-11-30`); CSV export of the same range.
 */
import type { Job } from "../../schemas/jobs";
import type { UsageReport } from "../../schemas/usage";
import { append, clear, h } from "../ui/dom";
import { ApiFailure, api, authHeaders } from "./client";
import { failureText, field, notice } from "./ui";
import { usageChart } from "./usage-chart";
import { addDays, utcDay } from "./usage-format";
import { dayTable, jobTable, modelTable, sourceTable, totalsLine } from "./usage-tables";

const PRESETS = [7, 30, 90] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range as the page holds it: a preset (last n days) or custom days. */
interface Range {
  preset: number | null;
  from: string;
  to: string;
}

/** The range of a hash argument; the last 30 days when it names none. */
function parseRange(arg: string): Range {
  const preset = /^(\d+)d$/.exec(arg);
  if (preset && PRESETS.includes(Number(preset[1]) as (typeof PRESETS)[number]))
    return lastDays(Number(preset[1]));
  const [from, to] = arg.split("..");
  if (from && to && DAY.test(from) && DAY.test(to)) return { preset: null, from, to };
  return lastDays(30);
}

function lastDays(n: number): Range {
  const to = utcDay(Date.now());
  return { preset: n, from: addDays(to, -(n - 1)), to };
}

const hashOf = (r: Range) => `#/usage/${r.preset ? `${r.preset}d` : `${r.from}..${r.to}`}`;
const query = (r: Range) => new URLSearchParams({ from: r.from, to: r.to });

/** Downloads the API's CSV of the range as a file, byte for byte. */
async function exportCsv(r: Range): Promise<void> {
  const res = await fetch(`/v1/usage?${query(r)}&format=csv`, { headers: authHeaders() });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiFailure(
      res.status,
      body?.error?.code ?? "http_error",
      body?.error?.message ?? `HTTP ${res.status}`,
    );
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
  const url = URL.createObjectURL(await res.blob());
  const a = h("a", { href: url, download: name ?? `cirrus-usage-${r.from}-to-${r.to}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Job names for the job rows (the first 100 jobs; others show their id). */
async function jobNames(report: UsageReport): Promise<Map<string, string>> {
  if (!report.jobs.length) return new Map();
  const { data } = await api<{ data: Job[] }>("/v1/jobs?limit=100");
  return new Map(data.map((j) => [j.id, j.name]));
}

/** Renders a report: totals, chart, tables; or the empty state. */
function render(body: HTMLElement, report: UsageReport, names: Map<string, string>): void {
  const t = report.total;
  if (t.runs === 0 && t.total_tokens === 0) {
    body.append(notice(`Nothing ran between ${report.from} and ${report.to} (UTC).`));
    return;
  }
  append(
    body,
    h("div", { class: "card usage-totals" }, totalsLine(t)),
    h(
      "figure",
      { class: "card usage-figure" },
      usageChart(report),
      h("figcaption", { class: "muted" }, `Per UTC day, ${report.from} to ${report.to}.`),
    ),
    dayTable(report),
    modelTable(report),
    report.jobs.length ? jobTable(report, names) : null,
    sourceTable(report, names),
  );
}

/** The page's state and the elements that show it; `seq` numbers loads so a stale one is dropped. */
interface UsageView {
  range: Range;
  seq: number;
  from: HTMLInputElement;
  to: HTMLInputElement;
  presetButtons: HTMLButtonElement[];
  out: HTMLElement;
  body: HTMLElement;
}

/** The Usage page. */
export async function usagePage(main: HTMLElement, arg: string): Promise<undefined> {
  const range = parseRange(arg);
  const view: UsageView = {
    range,
    seq: 0,
    body: h("div", { "aria-live": "polite", class: "usage-report" }),
    out: h("div", { "aria-live": "polite" }),
    from: h("input", { type: "date", value: range.from }),
    to: h("input", { type: "date", value: range.to }),
    presetButtons: [],
  };
  const show = (next: Range) => showRange(view, next);
  view.presetButtons = PRESETS.map((n) => {
    const b = h("button", { type: "button", class: "secondary", "data-preset": String(n) }, `Last ${n} days`);
    b.addEventListener("click", () => void show(lastDays(n)));
    return b;
  });
  main.append(
    h("div", { class: "page-head" }, h("h1", {}, "Usage"), csvButton(view)),
    h(
      "div",
      { class: "card usage-range" },
      h("div", { role: "group", "aria-label": "Range", class: "usage-presets" }, ...view.presetButtons),
      customRangeForm(view, show),
    ),
    view.out,
    view.body,
  );
  await show(range);
  return undefined;
}

/** The From/To form that shows a custom range. */
function customRangeForm(view: UsageView, show: (next: Range) => Promise<void>): HTMLFormElement {
  const custom = h(
    "form",
    { class: "usage-custom", "aria-label": "Custom range" },
    field("From (UTC)", view.from),
    field("To (UTC)", view.to),
    h("button", { type: "submit", class: "secondary" }, "Show range"),
  );
  custom.addEventListener("submit", (e) => {
    e.preventDefault();
    void show({ preset: null, from: view.from.value, to: view.to.value });
  });
  return custom;
}

/** "Export CSV": downloads the range shown at the time of the click. */
function csvButton(view: UsageView): HTMLButtonElement {
  const csv = h("button", { type: "button" }, "Export CSV");
  csv.addEventListener("click", () => {
    clear(view.out);
    exportCsv(view.range).catch((err) => view.out.append(notice(failureText(err), true)));
  });
  return csv;
}

/** Shows `next`: marks it in the controls and the address, then loads and renders its report. */
async function showRange(view: UsageView, next: Range): Promise<void> {
  const { out, body } = view;
  view.range = next;
  view.from.value = next.from;
  view.to.value = next.to;
  for (const b of view.presetButtons)
    b.setAttribute("aria-pressed", String(Number(b.dataset.preset) === next.preset));
  history.replaceState(null, "", hashOf(next));
  clear(out);
  const mine = ++view.seq;
  clear(body);
  body.append(h("p", { class: "muted" }, "Loading…"));
  try {
    const report = await api<UsageReport>(`/v1/usage?${query(next)}`);
    const names = await jobNames(report).catch((err) => {
      out.append(notice(`Job names could not be read: ${failureText(err)}`, true));
      return new Map<string, string>();
    });
    if (mine !== view.seq) return;
    clear(body);
    render(body, report, names);
  } catch (err) {
    if (mine !== view.seq) return;
    clear(body);
    body.append(notice(failureText(err), true));
  }
}
