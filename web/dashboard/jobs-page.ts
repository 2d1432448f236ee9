/**
 * Jobs (`/v1/jobs`): create and edit scheduled research jobs, run one now, read its run ledger
 * and open a run's result or conversation.
 */
import type { Job, JobRun } from "../../schemas/jobs";
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { downloadFile } from "./files-page";
import { researchFields, reviewCells } from "./research-view";
import { failureText, field, notice, when } from "./ui";

const TEXT_FIELDS = ["name", "schedule", "timezone", "model", "output_path", "webhook_url"] as const;
const NUMBER_FIELDS = ["max_steps", "max_runtime_seconds", "max_tokens"] as const;
const LABELS: Record<string, string> = {
  name: "Name",
  schedule: "Schedule (cron)",
  timezone: "Time zone",
  model: "Model",
  output_path: "Output path",
  webhook_url: "Webhook URL",
  max_steps: "Max steps",
  max_runtime_seconds: "Max runtime (s)",
  max_tokens: "Max tokens",
  prompt: "Prompt",
  instructions: "Instructions",
};

/** The create/edit form; `job` null creates. Calls `done` with the saved job. */
function jobForm(job: Job | null, done: (saved: Job) => void): HTMLFormElement {
  const inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement>();
  const text = (name: string, value: string | null | undefined, placeholder = "") => {
    const el = h("input", { value: value ?? "", placeholder });
    inputs.set(name, el);
    return field(LABELS[name], el);
  };
  const area = (name: string, value: string | null | undefined) => {
    const el = h("textarea", { rows: "4" }, value ?? "");
    inputs.set(name, el);
    return field(LABELS[name], el);
  };
  const enabled = h("input", { type: "checkbox", checked: job ? job.enabled : true });
  const research = researchFields(job);
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, job ? "Edit job" : "New job"),
    h(
      "div",
      { class: "grid" },
      text("name", job?.name),
      text("schedule", job?.schedule, "0 7 * * 1-5"),
      text("timezone", job?.timezone ?? "UTC", "Europe/Berlin"),
      text("model", job?.model, "workspace default"),
      text("output_path", job?.output_path, "reports/{job}/{date}-{time}.md"),
      text("webhook_url", job?.webhook_url, "https://example.com/hooks/cirrus"),
      ...NUMBER_FIELDS.map((name) => text(name, job?.[name] == null ? "" : String(job[name]))),
    ),
    area("prompt", job?.prompt),
    area("instructions", job?.instructions),
    research.el,
    h("label", {}, enabled, " Enabled (runs on its schedule)"),
    h("p", {}, h("button", { type: "submit" }, job ? "Save job" : "Create job")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body: Record<string, unknown> = { enabled: enabled.checked, ...research.body() };
    for (const name of [...TEXT_FIELDS, "prompt", "instructions"]) {
      const value = inputs.get(name)?.value.trim() ?? "";
      if (value) body[name] = value;
      else if (job && name !== "timezone") body[name] = null;
    }
    for (const name of NUMBER_FIELDS) {
      const value = inputs.get(name)?.value.trim() ?? "";
      if (value) body[name] = Number(value);
      else if (job && name !== "max_runtime_seconds") body[name] = null;
    }
    if (job)
      for (const required of ["name", "prompt", "schedule"])
        if (body[required] === null) delete body[required];
    clear(out);
    try {
      done(
        await api<Job>(job ? `/v1/jobs/${encodeURIComponent(job.id)}` : "/v1/jobs", {
          method: job ? "PATCH" : "POST",
          json: body,
        }),
      );
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  return form;
}

/** The Jobs page: the list and a create form, or one job with its ledger (`#/jobs/<id>`). */
export async function jobsPage(main: HTMLElement, arg: string): Promise<undefined> {
  if (arg) return jobPage(main, arg);
  main.append(h("h1", {}, "Jobs"));
  const jobs = (await api<{ data: Job[] }>("/v1/jobs?limit=100")).data;
  const out = h("div", { "aria-live": "polite" });
  const rows = jobs.map((job) =>
    h(
      "tr",
      { "data-job-id": job.id },
      h("td", {}, h("a", { href: `#/jobs/${encodeURIComponent(job.id)}` }, job.name)),
      h("td", {}, h("code", {}, job.schedule), ` ${job.timezone}`),
      h("td", {}, job.enabled ? "enabled" : "disabled"),
      h("td", {}, job.next_run_at ? when(job.next_run_at) : "—"),
    ),
  );
  main.append(
    out,
    h(
      "div",
      { class: "card" },
      jobs.length
        ? h(
            "table",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, "Name"),
                h("th", {}, "Schedule"),
                h("th", {}, "State"),
                h("th", {}, "Next run"),
              ),
            ),
            h("tbody", {}, ...rows),
          )
        : h("p", { class: "muted" }, "No jobs yet."),
    ),
    jobForm(null, (job) => {
      location.hash = `#/jobs/${encodeURIComponent(job.id)}`;
    }),
  );
  return undefined;
}

async function jobPage(main: HTMLElement, id: string): Promise<undefined> {
  const job = await api<Job>(`/v1/jobs/${encodeURIComponent(id)}`);
  const out = h("div", { "aria-live": "polite" });
  const ledger = h("div", { class: "card" });
  const runNow = h("button", { type: "button" }, "Run now");
  const del = h("button", { type: "button", class: "danger" }, "Delete job");
  runNow.addEventListener("click", async () => {
    clear(out);
    try {
      const run = await api<JobRun>(`/v1/jobs/${encodeURIComponent(id)}/run`, { method: "POST" });
      out.append(notice(`Run ${run.number} started.`));
      await renderLedger();
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  del.addEventListener("click", async () => {
    if (!confirm(`Delete the job ${job.name}? Its reports stay in Files.`)) return;
    try {
      await api(`/v1/jobs/${encodeURIComponent(id)}`, { method: "DELETE" });
      location.hash = "#/jobs";
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  refresh.addEventListener("click", () => void renderLedger());

  async function renderLedger(): Promise<void> {
    const runs = (await api<{ data: JobRun[] }>(`/v1/jobs/${encodeURIComponent(id)}/runs?limit=50`)).data;
    clear(ledger);
    ledger.append(h("h2", {}, "Runs "), refresh);
    if (!runs.length) {
      ledger.append(h("p", { class: "muted" }, "No runs yet."));
      return;
    }
    const rows = runs.map((run) => {
      const result = h("td");
      if (run.result_path) {
        const open = h("button", { type: "button", class: "secondary" }, run.result_path);
        open.addEventListener("click", () =>
          downloadFile(run.result_path!).catch((err) => out.append(notice(failureText(err), true))),
        );
        result.append(open);
      }
      return h(
        "tr",
        { "data-run": String(run.number), "data-status": run.status },
        h("td", {}, `#${run.number}`, h("div", { class: "muted" }, run.trigger)),
        h("td", {}, when(run.scheduled_at)),
        h(
          "td",
          {},
          run.started_at ? when(run.started_at) : "—",
          " → ",
          run.ended_at ? when(run.ended_at) : "…",
        ),
        h(
          "td",
          { class: "run-status" },
          run.status,
          run.error ? h("div", { class: "error" }, run.error.message) : null,
        ),
        result,
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
    });
    ledger.append(
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...[
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
            ].map((t) => h("th", {}, t)),
          ),
        ),
        h("tbody", {}, ...rows),
      ),
    );
  }

  main.append(
    h("p", {}, h("a", { href: "#/jobs" }, "← Jobs")),
    h("h1", {}, job.name),
    h(
      "p",
      {},
      h("code", {}, job.schedule),
      ` in ${job.timezone} — next run ${job.next_run_at ? when(job.next_run_at) : "none (disabled)"} `,
      runNow,
      " ",
      del,
    ),
    job.webhook_secret
      ? h("p", { class: "muted" }, "Webhook signing secret: ", h("code", {}, job.webhook_secret))
      : "",
    out,
    ledger,
    jobForm(job, () => {
      clear(main);
      void jobPage(main, id);
    }),
  );
  await renderLedger();
  return undefined;
}
