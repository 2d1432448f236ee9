/**
 * The Usage page's per-day chart: runs, tokens and dollars as three bar rows over the same days,
 * drawn as SVG with DOM calls (text only through textContent). Each bar's tooltip reads its day.
 */
import type { UsageReport } from "../../schemas/usage";
import { count, shortDay, usd } from "./usage-format";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 960;
const LEFT = 96;
const RIGHT = 8;
const ROW = 64;
const GAP = 14;
const AXIS = 22;

type Day = UsageReport["days"][number];

interface Series {
  label: string;
  cls: string;
  value: (d: Day) => number;
  text: (d: Day) => string;
  top: (max: number) => string;
}

const SERIES: Series[] = [
  {
    label: "Runs",
    cls: "bar-runs",
    value: (d) => d.runs,
    text: (d) => `${count(d.runs)} ${d.runs === 1 ? "run" : "runs"}`,
    top: count,
  },
  {
    label: "Tokens",
    cls: "bar-tokens",
    value: (d) => d.total_tokens,
    text: (d) => `${count(d.total_tokens)} tokens`,
    top: count,
  },
  {
    label: "Cost",
    cls: "bar-cost",
    value: (d) => d.cost_usd ?? 0,
    text: (d) =>
      d.cost_usd === null
        ? d.total_tokens > 0
          ? "no price"
          : "$0"
        : d.unpriced_tokens > 0
          ? `${usd(d.cost_usd)} + ${count(d.unpriced_tokens)} unpriced tokens`
          : usd(d.cost_usd),
    top: usd,
  },
];

/** Creates an SVG element with attributes. */
function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** One row of bars; days without a price but with tokens get a grey stub. */
function row(s: Series, days: Day[], y: number, slot: number): SVGGElement {
  const g = svg("g", { class: `series ${s.cls}`, "data-series": s.label.toLowerCase() });
  const max = Math.max(0, ...days.map(s.value));
  g.append(
    svg("text", { x: 0, y: y + 14, class: "series-label" }, s.label),
    svg("text", { x: 0, y: y + 30, class: "series-max" }, `max ${s.top(max)}`),
    svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y + ROW, y2: y + ROW, class: "baseline" }),
  );
  days.forEach((d, i) => {
    const v = s.value(d);
    const unpriced = s.cls === "bar-cost" && d.cost_usd === null && d.total_tokens > 0;
    const h = max > 0 ? Math.max(v > 0 ? 2 : 0, (v / max) * ROW) : 0;
    const height = unpriced ? 3 : h;
    const bar = svg("rect", {
      x: LEFT + i * slot + slot * 0.15,
      y: y + ROW - height,
      width: Math.max(1, slot * 0.7),
      height,
      class: unpriced ? "bar unpriced" : "bar",
      "data-day": d.day,
    });
    bar.append(svg("title", {}, `${d.day}: ${s.text(d)}`));
    g.append(bar);
  });
  return g;
}

/** Day labels under the rows: every few days, the first and (when not too close) the last. */
function axis(days: Day[], y: number, slot: number): SVGGElement {
  const g = svg("g", { class: "axis" });
  const every = Math.max(1, Math.ceil(days.length / 8));
  const last = days.length - 1;
  const shown = days.map((_, i) => i).filter((i) => i % every === 0);
  if (last - shown[shown.length - 1] >= every / 2) shown.push(last);
  for (const i of shown) {
    const [x, anchor] =
      i === 0 && days.length > 1
        ? [LEFT + i * slot, "start"]
        : i === last && days.length > 1
          ? [LEFT + (i + 1) * slot, "end"]
          : [LEFT + (i + 0.5) * slot, "middle"];
    g.append(svg("text", { x, y: y + 15, "text-anchor": anchor }, shortDay(days[i].day)));
  }
  return g;
}

/** The chart for a report's days (every day of the range, oldest first). */
export function usageChart(report: UsageReport): SVGSVGElement {
  const days = report.days;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, days.length);
  const height = SERIES.length * (ROW + GAP) + AXIS;
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: "100%",
    role: "img",
    class: "usage-chart",
    "aria-label": `Runs, tokens and cost per day (UTC), ${report.from} to ${report.to}`,
  });
  SERIES.forEach((s, i) => {
    chart.append(row(s, days, i * (ROW + GAP), slot));
  });
  chart.append(axis(days, SERIES.length * (ROW + GAP) - GAP, slot));
  return chart;
}
