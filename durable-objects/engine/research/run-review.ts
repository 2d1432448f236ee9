/**
 * The review of a finished run's result: its citations checked against what was read, its
 * success criteria graded, and — when something failed and revisions remain — the message that
 * sends the run back. Each check and each grading is reported as a CUSTOM event.
 */
import type { CirrusEvent } from "../../../schemas/events";
import type { Grade, RunReview, VerifyCitations } from "../../../schemas/research";
import { ev } from "../loop/event-builders";
import type { ModelClient, Usage } from "../model/model-types";
import { type CitationCheck, checkCitations, resultText } from "./citations";
import { gradeResult, type Grading } from "./grader";
import type { ReadLog } from "./read-log";
import type { ReviewStore } from "./review-store";

/** Defaults of a conversation (a job's are set on its conversation and message). */
export const DEFAULT_VERIFY_CITATIONS: VerifyCitations = "flag";
export const DEFAULT_MAX_REVISIONS = 1;
/** Items listed per kind in a revision message; the rest are counted. */
const LISTED = 30;

/** The settings one run is reviewed with (message options over the conversation's). */
export interface ReviewSettings {
  verify: VerifyCitations;
  maxRevisions: number;
  criteria: string[];
  graderModel: string;
}

/** What a review needs from the conversation. */
export interface ReviewDeps {
  settings: ReviewSettings;
  store: ReviewStore;
  reads: ReadLog;
  /** The run's task: its user message. */
  task: string;
  grader: ModelClient;
  /** Books the grader's tokens to the run (priced at the grader model's price). */
  addUsage(usage: Usage): void;
  emit(event: CirrusEvent): void;
  signal?: AbortSignal;
}

/** What a review decided: send the run back with `revise`, or accept it with `review` recorded. */
export interface ReviewVerdict {
  revise: string | null;
  review: RunReview;
}

/** Reviews one result of run `runId`. */
export async function reviewRun(deps: ReviewDeps, runId: string, output: unknown): Promise<ReviewVerdict> {
  const { settings, store } = deps;
  const revision = store.revisions(runId);
  const text = resultText(output);
  const check = settings.verify === "off" ? null : checkCitations(text, deps.reads.pages());
  if (check && (check.citations.length || check.uncited_quotes.length)) {
    const { citations, uncited_quotes, unverified } = check;
    deps.emit(
      ev.custom("citations_checked", {
        cited: citations.length,
        unverified,
        citations,
        uncited_quotes,
        revision,
      }),
    );
  }
  const grading = settings.criteria.length ? await grade(deps, text) : null;
  const failed = grading?.grades.filter((g) => !g.pass) ?? [];
  if (grading) {
    const passed = grading.grades.length - failed.length;
    const { grades, error } = grading;
    deps.emit(ev.custom("outcome_graded", { passed, total: grades.length, grades, error, revision }));
  }
  const unverifiedToFix = settings.verify === "revise" && check ? check.unverified : 0;
  // A grading that failed is recorded, not sent back: the agent cannot fix the grader.
  const toFix = grading?.error ? [] : failed;
  if ((unverifiedToFix > 0 || toFix.length > 0) && revision < settings.maxRevisions) {
    store.addRevision(runId);
    const message = revisionMessage(
      unverifiedToFix ? check : null,
      toFix,
      revision + 1,
      settings.maxRevisions,
    );
    return { revise: message, review: store.review(runId) };
  }
  const review: RunReview = {
    citations: check?.citations ?? null,
    uncited_quotes: check?.uncited_quotes ?? null,
    citations_unverified: check?.unverified ?? null,
    grades: grading?.grades ?? null,
    grading_error: grading?.error ?? null,
    revisions: revision,
  };
  store.save(runId, review);
  return { revise: null, review };
}

function grade(deps: ReviewDeps, result: string): Promise<Grading> {
  return gradeResult(
    deps.grader,
    {
      model: deps.settings.graderModel,
      task: deps.task,
      criteria: deps.settings.criteria,
      result,
      sources: deps.reads.sources(),
      signal: deps.signal,
    },
    deps.addUsage,
  );
}

const listed = (lines: string[]) =>
  lines.slice(0, LISTED).join("\n") + (lines.length > LISTED ? `\n(and ${lines.length - LISTED} more)` : "");

/** The user message that sends a run back: what to fix, then the whole result again. */
export function revisionMessage(
  check: CitationCheck | null,
  failed: Grade[],
  n: number,
  max: number,
): string {
  const parts = [
    `Your result is not accepted yet (revision ${n} of ${max}). Fix the following, then give the complete result again (with the finish tool if you used it):`,
  ];
  const unread = check?.citations.filter((c) => !c.read).map((c) => `- ${c.url}`) ?? [];
  if (unread.length)
    parts.push(
      `Cited but never read in this run — read the page (web_fetch) or remove the claim and its link:\n${listed(unread)}`,
    );
  const missing = [
    ...(check?.citations ?? [])
      .filter((c) => c.read)
      .flatMap((c) => c.quotes.filter((q) => !c.quotes_found.includes(q)).map((q) => `- "${q}" (${c.url})`)),
    ...(check?.uncited_quotes ?? []).filter((u) => !u.found).map((u) => `- "${u.quote}" (no citation)`),
  ];
  if (missing.length)
    parts.push(
      `Quotations not found in the pages read — quote the page's exact words or drop the quotation marks and the claim:\n${listed(missing)}`,
    );
  if (failed.length)
    parts.push(`Success criteria not met:\n${listed(failed.map((g) => `- ${g.criterion} — ${g.reason}`))}`);
  return parts.join("\n\n");
}
