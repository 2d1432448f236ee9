/**
 * A job's research settings and its memory across runs: each run is told, in its first message,
 * where the last `memory_runs` reports were saved and which URLs they cited, so a digest can say
 * what is new. The list is bounded and says when it was cut.
 */
import type { JobSettings } from "../../schemas/jobs";
import type { VerifyCitations } from "../../schemas/research";
import type { JobLedger, StoredRun } from "./job-ledger";

/** A job's research defaults (also for jobs stored before these settings existed). */
export const JOB_DEFAULTS = {
  verify_citations: "revise" as VerifyCitations,
  max_revisions: 1,
  memory_runs: 3,
  success_criteria: null as string[] | null,
  grader_model: null as string | null,
  fail_on_ungraded: false,
};

/** Cited URLs listed per earlier report; the rest are counted. */
export const MEMORY_URLS_PER_RUN = 20;
/** Longest URL listed (longer ones are cut, marked with …). */
const MEMORY_URL_CHARS = 300;

/** Told to the model of a job with memory (its instructions say how to use the list). */
export const MEMORY_NOTE =
  "Your first message may begin with <earlier_runs>: the reports earlier runs of this job saved in the workspace files and the URLs they cited. Read the newest report (opfs_read) before you start when it helps, build on it, and say what is new since then instead of repeating it.";

/** The research settings of a job, defaults filled in. */
export function researchSettings(s: Partial<Pick<JobSettings, keyof typeof JOB_DEFAULTS>>) {
  return {
    verify_citations: s.verify_citations ?? JOB_DEFAULTS.verify_citations,
    max_revisions: s.max_revisions ?? JOB_DEFAULTS.max_revisions,
    memory_runs: s.memory_runs ?? JOB_DEFAULTS.memory_runs,
    success_criteria: s.success_criteria ?? JOB_DEFAULTS.success_criteria,
    grader_model: s.grader_model ?? JOB_DEFAULTS.grader_model,
    fail_on_ungraded: s.fail_on_ungraded ?? JOB_DEFAULTS.fail_on_ungraded,
  };
}

/** One earlier run's report, as the memory lists it. */
export interface EarlierReport {
  number: number;
  scheduled_at: number;
  result_path: string;
  cited_urls: string[];
}

const shortUrl = (u: string) => (u.length > MEMORY_URL_CHARS ? `${u.slice(0, MEMORY_URL_CHARS)}…` : u);

/** The memory block a run's first message starts with; "" when there is nothing to tell. */
export function memoryBlock(reports: EarlierReport[], total: number): string {
  if (!reports.length) return "";
  const head =
    total > reports.length
      ? `The last ${reports.length} of ${total} reports of this job, newest first:`
      : `Reports of earlier runs of this job, newest first:`;
  const lines = reports.map((r) => {
    const when = new Date(r.scheduled_at).toISOString().slice(0, 16).replace("T", " ");
    const urls = r.cited_urls.slice(0, MEMORY_URLS_PER_RUN).map((u) => `  - ${shortUrl(u)}`);
    const more = r.cited_urls.length - urls.length;
    const cited = r.cited_urls.length
      ? `\n  cited:\n${urls.join("\n")}${more > 0 ? `\n  (and ${more} more URLs not listed)` : ""}`
      : "\n  cited: none";
    return `- run ${r.number} (${when} UTC): ${r.result_path}${cited}`;
  });
  return `<earlier_runs>\n${head}\n${lines.join("\n")}\n</earlier_runs>\n\n`;
}

/** The memory block of a job run: the reports of the runs before it, as many as `memory_runs`. */
export function memoryFor(
  ledger: Pick<JobLedger, "reportsBefore">,
  settings: JobSettings,
  run: StoredRun,
): string {
  const { memory_runs } = researchSettings(settings);
  if (!memory_runs) return "";
  const { runs, total } = ledger.reportsBefore(run.number, memory_runs);
  const reports = runs.map((r) => ({
    number: r.number,
    scheduled_at: r.scheduled_at,
    result_path: r.result_path!,
    cited_urls: r.cited_urls,
  }));
  return memoryBlock(reports, total);
}
