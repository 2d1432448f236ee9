/**
 * A job's run ledger on its page (`#/jobs/<id>`): one row per run with its timing, status,
 * result file, conversation, research columns, tokens and webhook delivery.
 */
import type { JobRun } from "../../schemas/jobs";
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { downloadFile } from "./files-page";
import { reviewCells } from "./research-view";
import { failureText, notice, when } from "./ui";

const COLUMNS = [
  "Run",
  "Scheduled",
  "Started → ended",
  "Status",
  "Result",
  "Log",
  "Citations",
  "Grades",
  "Tokens",
  "Webhook",
];

/** The ledger card of job `id` and `render`, which (re)loads its runs; failures go to `out`. */
export function runLedger(id: string, out: HTMLElement): { el: HTMLElement; render(): Promise<void> } {
  const ledger = h("div", { class: "card" });
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  refresh.addEventListener("click", () => void render());

  async function render(): Promise<void> {
    const runs = (await api<{ data: JobRun[] }>(`/v1/jobs/${encodeURIComponent(id)}/runs?limit=50`)).data;
    clear(ledger);
    ledger.append(h("h2", {}, "Runs "), refresh);
    if (!runs.length) {
      ledger.append(h("p", { class: "muted" }, "No runs yet."));
      return;
    }
    ledger.append(runsTable(runs.map((run) => runRow(run, out))));
  }

  return { el: ledger, render };
}

/** The ledger's table around its rows. */
function runsTable(rows: HTMLElement[]): HTMLElement {
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, ...COLUMNS.map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows),
  );
}

/** One run's row; a failed download of its result goes to `out`. */
function runRow(run: JobRun, out: HTMLElement): HTMLElement {
  return h(
    "tr",
    { "data-run": String(run.number), "data-status": run.status },
    h("td", {}, `#${run.number}`, h("div", { class: "muted" }, run.trigger)),
    h("td", {}, when(run.scheduled_at)),
    h("td", {}, run.started_at ? when(run.started_at) : "—", " → ", run.ended_at ? when(run.ended_at) : "…"),
    h(
      "td",
      { class: "run-status" },
      run.status,
      run.error ? h("div", { class: "error" }, run.error.message) : null,
    ),
    resultCell(run, out),
    h(
      "td",
      {},
      run.conversation_id
        ? h("a", { href: `#/conversations/${encodeURIComponent(run.conversation_id)}` }, "conversation")
        : "",
    ),
    ...reviewCells(run),
    h("td", {}, run.tokens ? String(run.tokens.total_tokens) : ""),
    h("td", {}, run.webhook ? `${run.webhook.status} (${run.webhook.attempts})` : ""),
  );
}

/** The result cell: a button that downloads the run's report, if it wrote one. */
function resultCell(run: JobRun, out: HTMLElement): HTMLElement {
  const result = h("td");
  if (run.result_path) {
    const open = h("button", { type: "button", class: "secondary" }, run.result_path);
    open.addEventListener("click", () =>
      downloadFile(run.result_path!).catch((err) => out.append(notice(failureText(err), true))),
    );
    result.append(open);
  }
  return result;
}
