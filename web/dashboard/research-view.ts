/**
 * The dashboard's view of research checks: a job's research settings in its form, its ledger's
 * citation and grade columns, and the conversation transcript's rows for `citations_checked` and
 * `outcome_graded`.
 */
import type { Job, JobRun } from "../../schemas/jobs";
import type { CitationsChecked, OutcomeGraded } from "../../schemas/research";
import { h } from "../ui/dom";
import { field } from "./ui";

/** The research settings part of the job form: its fields and the body they make. */
export function researchFields(job: Job | null): { el: HTMLElement; body(): Record<string, unknown> } {
  const verify = h(
    "select",
    { name: "verify_citations" },
    ...["revise", "flag", "off"].map((v) =>
      h("option", { value: v, selected: (job?.verify_citations ?? "revise") === v }, v),
    ),
  );
  const number = (name: string, value: number) =>
    h("input", { name, type: "number", min: "0", value: String(value) });
  const maxRevisions = number("max_revisions", job?.max_revisions ?? 1);
  const memoryRuns = number("memory_runs", job?.memory_runs ?? 3);
  const grader = h("input", {
    name: "grader_model",
    value: job?.grader_model ?? "",
    placeholder: "the job's model",
  });
  const criteria = h(
    "textarea",
    { name: "success_criteria", rows: "3" },
    (job?.success_criteria ?? []).join("\n"),
  );
  const failOn = h("input", {
    type: "checkbox",
    name: "fail_on_ungraded",
    checked: job?.fail_on_ungraded ?? false,
  });
  const el = h(
    "div",
    {},
    h(
      "div",
      { class: "grid" },
      field("Verify citations", verify),
      field("Max revisions", maxRevisions),
      field("Memory (earlier runs)", memoryRuns),
      field("Grader model", grader),
    ),
    field("Success criteria (one per line)", criteria),
    h("label", {}, failOn, " Mark a run failed when a criterion fails"),
  );
  return {
    el,
    body: () => {
      const lines = criteria.value
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      return {
        verify_citations: verify.value,
        max_revisions: Number(maxRevisions.value || 0),
        memory_runs: Number(memoryRuns.value || 0),
        fail_on_ungraded: failOn.checked,
        ...(grader.value.trim() ? { grader_model: grader.value.trim() } : job ? { grader_model: null } : {}),
        ...(lines.length ? { success_criteria: lines } : job ? { success_criteria: null } : {}),
      };
    },
  };
}

/** The ledger's citation and grade cells of one run. */
export function reviewCells(run: JobRun): HTMLElement[] {
  const cited =
    run.citations_unverified === null
      ? "—"
      : run.citations_unverified === 0
        ? "all verified"
        : `${run.citations_unverified} unverified`;
  const graded = run.grades_total === null ? "—" : `${run.grades_passed}/${run.grades_total} passed`;
  return [h("td", { class: "run-citations" }, cited), h("td", { class: "run-grades" }, graded)];
}

/** A transcript row for a research event; null for any other event. */
export function reviewRow(event: { type: string; name?: string; value?: unknown }): HTMLElement | null {
  if (event.type !== "CUSTOM") return null;
  if (event.name === "citations_checked") return citationsRow(event.value as CitationsChecked);
  if (event.name === "outcome_graded") return gradesRow(event.value as OutcomeGraded);
  return null;
}

function citationsRow(v: CitationsChecked): HTMLElement {
  const items = [
    ...v.citations.map((c) =>
      h(
        "li",
        { "data-read": String(c.read) },
        `${c.read ? "✓ read" : "✗ never read"}: ${c.url}`,
        c.quotes.length ? ` — ${c.quotes_found.length}/${c.quotes.length} quotations found` : "",
      ),
    ),
    ...v.uncited_quotes.map((q) => h("li", {}, `${q.found ? "✓" : "✗"} uncited quotation: “${q.quote}”`)),
  ];
  return h(
    "div",
    { class: "row review-row citations-row" },
    h("strong", {}, `Citations checked: ${v.cited} cited, ${v.unverified} unverified`),
    h("ul", {}, ...items),
  );
}

function gradesRow(v: OutcomeGraded): HTMLElement {
  return h(
    "div",
    { class: "row review-row grades-row" },
    h("strong", {}, `Graded: ${v.passed}/${v.total} criteria passed`),
    v.error ? h("div", { class: "error" }, v.error) : null,
    h(
      "ul",
      {},
      ...v.grades.map((g) =>
        h("li", { "data-pass": String(g.pass) }, `${g.pass ? "✓" : "✗"} ${g.criterion} — ${g.reason}`),
      ),
    ),
  );
}
