/**
 * Research you can trust unattended: how a run's citations are checked against what it read,
 * how its result is graded against success criteria, and what the check and the grades record.
 * One zod schema per concept, shared by requests, run results, events, jobs and OpenAPI.
 */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";

/** Most success criteria one job or message may set. */
export const MAX_CRITERIA = 20;
/** Most times a run may be sent back (for unverified citations or failed criteria). */
export const MAX_REVISIONS_LIMIT = 5;
/** Most earlier runs a job's run is told about. */
export const MAX_MEMORY_RUNS = 10;

export const VerifyCitations = z
  .enum(["off", "flag", "revise"])
  .describe(
    "Check the result's citations and quotations against the pages the run read: `off`; `flag` (record what is unverified); `revise` (also send the run back, up to max_revisions times, with a message listing them).",
  );
export type VerifyCitations = z.infer<typeof VerifyCitations>;

export const MaxRevisions = z
  .number()
  .int()
  .min(0)
  .max(MAX_REVISIONS_LIMIT)
  .describe(
    "How many times a finished run may be sent back to fix unverified citations (verify_citations `revise`) or failed success criteria; default 1.",
  );

export const SuccessCriteria = z
  .array(z.string().trim().min(1).max(1_000))
  .min(1)
  .max(MAX_CRITERIA)
  .describe(
    `Up to ${MAX_CRITERIA} short statements the result must meet; a grader call (a fresh context, no tools) judges each one after the run finishes.`,
  );

export const GraderModel = oneLine(200).describe(
  "The model that grades results against success_criteria (default: the run's model).",
);

/** One cited URL of a result and what the run read of it. */
export const Citation = z
  .object({
    url: z.string().describe("The URL as the result cites it (a Markdown link or a bare URL)."),
    read: z
      .boolean()
      .describe(
        "Whether the run read this page (web_fetch, get_tab_content, open_tab, sub-agents; requested or final URL).",
      ),
    quotes: z
      .array(z.string())
      .describe("Passages of six words or more the result puts in quotation marks next to this citation."),
    quotes_found: z
      .array(z.string())
      .describe(
        "Those of `quotes` found in the text read from this page (case, whitespace, punctuation and quote marks ignored).",
      ),
  })
  .openapi("Citation");
export type Citation = z.infer<typeof Citation>;

/** A quotation with no citation in its paragraph: checked against every page the run read. */
export const UncitedQuote = z.object({ quote: z.string(), found: z.boolean() }).openapi("UncitedQuote");
export type UncitedQuote = z.infer<typeof UncitedQuote>;

/** One success criterion as the grader judged it. */
export const Grade = z
  .object({
    criterion: z.string(),
    pass: z.boolean(),
    reason: z.string().describe("The grader's reason (or why grading failed: never a pass)."),
  })
  .openapi("Grade");
export type Grade = z.infer<typeof Grade>;

/** What a finished run's last check recorded; every field null when nothing was checked. */
export const RunReview = z.object({
  citations: z
    .array(Citation)
    .nullable()
    .describe("The result's citations as last checked; null when verify_citations is off."),
  uncited_quotes: z
    .array(UncitedQuote)
    .nullable()
    .describe("Quotations with no citation in their paragraph; null when verify_citations is off."),
  citations_unverified: z
    .number()
    .int()
    .nullable()
    .describe("Citations never read plus quotations not found; null when verify_citations is off."),
  grades: z
    .array(Grade)
    .nullable()
    .describe("The last grading of success_criteria; null when the run had none."),
  grading_error: z
    .string()
    .nullable()
    .describe("Why the last grading failed (its criteria are recorded as not passed); null otherwise."),
  revisions: z.number().int().describe("How many times the run was sent back."),
});
export type RunReview = z.infer<typeof RunReview>;

/** A run's review when nothing was checked. */
export const NO_REVIEW: RunReview = {
  citations: null,
  uncited_quotes: null,
  citations_unverified: null,
  grades: null,
  grading_error: null,
  revisions: 0,
};

/** The `citations_checked` CUSTOM event: one per check of a result that cites or quotes anything. */
export const CitationsChecked = z.object({
  cited: z.number().int().describe("Distinct URLs the result cites."),
  unverified: z.number().int().describe("Citations never read plus quotations not found."),
  citations: z.array(Citation),
  uncited_quotes: z.array(UncitedQuote),
  revision: z.number().int().describe("0 for the first check, then one more per time the run was sent back."),
});
export type CitationsChecked = z.infer<typeof CitationsChecked>;

/** The `outcome_graded` CUSTOM event: one per grading. */
export const OutcomeGraded = z.object({
  passed: z.number().int(),
  total: z.number().int(),
  grades: z.array(Grade),
  error: z.string().nullable(),
  revision: z.number().int(),
});
export type OutcomeGraded = z.infer<typeof OutcomeGraded>;

/** The per-message research options (each overrides the conversation's). */
export const MessageReviewOptions = z.object({
  verify_citations: VerifyCitations.optional(),
  max_revisions: MaxRevisions.optional(),
  success_criteria: SuccessCriteria.optional(),
  grader_model: GraderModel.optional(),
});
export type MessageReviewOptions = z.infer<typeof MessageReviewOptions>;
