/**
 * Jobs (`/v1/jobs`): create and edit scheduled research jobs, run one now, read its run ledger
 * and open a run's result or conversation (the ledger is in job-runs.ts).
 */
import type { Job, JobRun } from "../../schemas/jobs";
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { runLedger } from "./job-runs";
import { researchFields } from "./research-view";
import { failureText, field, notice, when } from "./ui";

const TEXT_FIELDS = ["name", "schedule", "timezone", "model", "output_path", "webhook_url"] as const;
const NUMBER_FIELDS = ["max_steps", "max_runtime_seconds", "max_tokens", "max_consecutive_failures"] as const;
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
  max_consecutive_failures: "Max failing turns in a row",
  fallback_models: "Fallback models (comma-separated)",
  prompt: "Prompt",
  instructions: "Instructions",
};

type Inputs = Map<string, HTMLInputElement | HTMLTextAreaElement>;

/** A labelled one-line input for field `name`, registered in `inputs`. */
function textField(
  inputs: Inputs,
  name: string,
  value: string | null | undefined,
  placeholder = "",
): HTMLElement {
  const el = h("input", { value: value ?? "", placeholder });
  inputs.set(name, el);
  return field(LABELS[name], el);
}

/** A labelled text area for field `name`, registered in `inputs`. */
function areaField(inputs: Inputs, name: string, value: string | null | undefined): HTMLElement {
  const el = h("textarea", { rows: "4" }, value ?? "");
  inputs.set(name, el);
  return field(LABELS[name], el);
}

/** The form's grid of one-line fields: the text settings, then the limits. */
function settingsGrid(job: Job | null, inputs: Inputs): HTMLElement {
  const text = (name: string, value: string | null | undefined, placeholder = "") =>
    textField(inputs, name, value, placeholder);
  return h(
    "div",
    { class: "grid" },
    text("name", job?.name),
    text("schedule", job?.schedule, "0 7 * * 1-5"),
    text("timezone", job?.timezone ?? "UTC", "Europe/Berlin"),
    text("model", job?.model, "workspace default"),
    text("fallback_models", job?.fallback_models?.join(", "), "when the model is down"),
    text("output_path", job?.output_path, "reports/{job}/{date}-{time}.md"),
    text("webhook_url", job?.webhook_url, "https://example.com/hooks/cirrus"),
    ...NUMBER_FIELDS.map((name) => text(name, job?.[name] == null ? "" : String(job[name]))),
  );
}

/**
 * The request body: `body` (the enabled flag and research settings) plus the filled fields.
 * Editing (`job` set) sends an emptied field as null to clear it, except the time zone, the
 * runtime limit and the required fields.
 */
function jobBody(job: Job | null, inputs: Inputs, body: Record<string, unknown>): Record<string, unknown> {
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
  const fallbacks =
    inputs
      .get("fallback_models")
      ?.value.split(",")
      .map((m) => m.trim())
      .filter(Boolean) ?? [];
  if (fallbacks.length) body.fallback_models = fallbacks;
  else if (job) body.fallback_models = null;
  if (job)
    for (const required of ["name", "prompt", "schedule"]) if (body[required] === null) delete body[required];
  return body;
}

/** Creates the job (`job` null) or patches it. */
function saveJob(job: Job | null, body: Record<string, unknown>): Promise<Job> {
  return api<Job>(job ? `/v1/jobs/${encodeURIComponent(job.id)}` : "/v1/jobs", {
    method: job ? "PATCH" : "POST",
    json: body,
  });
}

/** The create/edit form; `job` null creates. Calls `done` with the saved job. */
function jobForm(job: Job | null, done: (saved: Job) => void): HTMLFormElement {
  const inputs: Inputs = new Map();
  const enabled = h("input", { type: "checkbox", checked: job ? job.enabled : true });
  const research = researchFields(job);
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, job ? "Edit job" : "New job"),
    settingsGrid(job, inputs),
    areaField(inputs, "prompt", job?.prompt),
    areaField(inputs, "instructions", job?.instructions),
    research.el,
    h("label", {}, enabled, " Enabled (runs on its schedule)"),
    h("p", {}, h("button", { type: "submit" }, job ? "Save job" : "Create job")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = jobBody(job, inputs, { enabled: enabled.checked, ...research.body() });
    clear(out);
    try {
      done(await saveJob(job, body));
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
  main.append(
    out,
    h("div", { class: "card" }, jobs.length ? jobsTable(jobs) : h("p", { class: "muted" }, "No jobs yet.")),
    jobForm(null, (job) => {
      location.hash = `#/jobs/${encodeURIComponent(job.id)}`;
    }),
  );
  return undefined;
}

/** The list of jobs: name (a link to its page), schedule, state and next run. */
function jobsTable(jobs: Job[]): HTMLElement {
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
  return h(
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
  );
}

/** One job's page: its schedule and actions, the run ledger and the edit form. */
async function jobPage(main: HTMLElement, id: string): Promise<undefined> {
  const job = await api<Job>(`/v1/jobs/${encodeURIComponent(id)}`);
  const out = h("div", { "aria-live": "polite" });
  const ledger = runLedger(id, out);
  main.append(
    h("p", {}, h("a", { href: "#/jobs" }, "← Jobs")),
    h("h1", {}, job.name),
    h(
      "p",
      {},
      h("code", {}, job.schedule),
      ` in ${job.timezone} — next run ${job.next_run_at ? when(job.next_run_at) : "none (disabled)"} `,
      runNowButton(id, out, ledger.render),
      " ",
      deleteButton(id, job.name, out),
    ),
    job.webhook_secret
      ? h("p", { class: "muted" }, "Webhook signing secret: ", h("code", {}, job.webhook_secret))
      : "",
    out,
    ledger.el,
    jobForm(job, () => {
      clear(main);
      void jobPage(main, id);
    }),
  );
  await ledger.render();
  return undefined;
}

/** "Run now": starts a run of job `id`, says so in `out` and reloads the ledger. */
function runNowButton(id: string, out: HTMLElement, reload: () => Promise<void>): HTMLButtonElement {
  const runNow = h("button", { type: "button" }, "Run now");
  runNow.addEventListener("click", async () => {
    clear(out);
    try {
      const run = await api<JobRun>(`/v1/jobs/${encodeURIComponent(id)}/run`, { method: "POST" });
      out.append(notice(`Run ${run.number} started.`));
      await reload();
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  return runNow;
}

/** "Delete job": after confirming, deletes it and goes back to the list; failures go to `out`. */
function deleteButton(id: string, name: string, out: HTMLElement): HTMLButtonElement {
  const del = h("button", { type: "button", class: "danger" }, "Delete job");
  del.addEventListener("click", async () => {
    if (!confirm(`Delete the job ${name}? Its reports stay in Files.`)) return;
    try {
      await api(`/v1/jobs/${encodeURIComponent(id)}`, { method: "DELETE" });
      location.hash = "#/jobs";
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  return del;
}
