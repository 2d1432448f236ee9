/** The Usage page's tables: per day, per model, per job and per conversation, and the totals line. */
import type { UsageReport, UsageTotals } from "../../schemas/usage";
import { type Child, h } from "../ui/dom";
import { cost, count } from "./usage-format";

const NUMBERS = ["Runs", "Input tokens", "Output tokens", "Cached input", "Total tokens", "Cost"];

/** The number cells of some totals, in {@link NUMBERS} order. */
function cells(t: UsageTotals): HTMLElement[] {
  const costCell = h("td", { class: t.cost_usd === null ? "cost no-price" : "cost" }, cost(t));
  return [
    ...[t.runs, t.input_tokens, t.output_tokens, t.cached_input_tokens, t.total_tokens].map((n) =>
      h("td", { class: "num" }, count(n)),
    ),
    costCell,
  ];
}

function table(title: string, first: string[], rows: HTMLElement[], note?: Child): HTMLElement {
  return h(
    "section",
    { class: "card" },
    h("h2", {}, title),
    h(
      "table",
      { "aria-label": title, class: "usage-table" },
      h(
        "thead",
        {},
        h("tr", {}, ...first.map((t) => h("th", {}, t)), ...NUMBERS.map((t) => h("th", { class: "num" }, t))),
      ),
      h("tbody", {}, ...rows),
    ),
    note ? h("p", { class: "muted" }, note) : null,
  );
}

/** "4 runs · 12,345 tokens · $1.23" for the whole range. */
export function totalsLine(t: UsageTotals): HTMLElement {
  return h(
    "p",
    { class: "usage-total" },
    h("strong", {}, `${count(t.runs)} ${t.runs === 1 ? "run" : "runs"}`),
    ` · ${count(t.total_tokens)} tokens · `,
    h("strong", {}, cost(t)),
  );
}

/** The days that saw runs or tokens, newest first. */
export function dayTable(r: UsageReport): HTMLElement {
  const active = r.days.filter((d) => d.runs > 0 || d.total_tokens > 0).reverse();
  return table(
    "Per day",
    ["Day (UTC)"],
    active.map((d) => h("tr", { "data-day": d.day }, h("td", {}, d.day), ...cells(d))),
    "Days without runs are left out.",
  );
}

/** One row per model. */
export function modelTable(r: UsageReport): HTMLElement {
  return table(
    "Per model",
    ["Model"],
    r.models.map((m) => h("tr", { "data-model": m.model }, h("td", {}, h("code", {}, m.model)), ...cells(m))),
  );
}

const jobLink = (id: string, names: Map<string, string>) =>
  h("a", { href: `#/jobs/${encodeURIComponent(id)}` }, names.get(id) ?? id);

/** One row per job (its runs' conversations summed), linking to the job. */
export function jobTable(r: UsageReport, names: Map<string, string>): HTMLElement {
  return table(
    "Per job",
    ["Job"],
    r.jobs.map((j) =>
      h("tr", { "data-job-id": j.job_id }, h("td", {}, jobLink(j.job_id, names)), ...cells(j)),
    ),
    r.jobs_total > r.jobs.length
      ? `The ${r.jobs.length} most expensive of ${r.jobs_total} jobs; the CSV export has them all.`
      : null,
  );
}

/** One row per conversation, linking to it (and to its job, for a job's run). */
export function sourceTable(r: UsageReport, names: Map<string, string>): HTMLElement {
  return table(
    "Per conversation",
    ["Conversation", "Job"],
    r.sources.map((s) =>
      h(
        "tr",
        { "data-conversation-id": s.conversation_id },
        h(
          "td",
          {},
          h(
            "a",
            { href: `#/conversations/${encodeURIComponent(s.conversation_id)}` },
            s.title || s.conversation_id,
          ),
        ),
        h("td", {}, s.job_id ? jobLink(s.job_id, names) : h("span", { class: "muted" }, "—")),
        ...cells(s),
      ),
    ),
    r.sources_total > r.sources.length
      ? `The ${r.sources.length} most expensive of ${r.sources_total} conversations; the CSV export has them all.`
      : null,
  );
}
