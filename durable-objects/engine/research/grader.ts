/**
 * The grader: one model call in a fresh context (the task, the success criteria, the result and
 * the list of sources read; no tools) whose answer must be JSON `{grades: [{criterion, pass,
 * reason}]}` (`response_format` json_schema). An answer that is not valid JSON of that shape is
 * asked for once more; after that the grading is an error and every criterion counts as failed.
 */
import type { Grade } from "../../../schemas/research";
import type { JsonSchemaFormat, ModelClient, Usage } from "../model/model-types";

/** Attempts at a valid answer before the grading is an error. */
export const GRADER_ATTEMPTS = 2;
/** Characters of the result and of the task shown to the grader; the rest is cut and said so. */
export const GRADER_RESULT_CHARS = 60_000;
export const GRADER_TASK_CHARS = 20_000;
/** Output tokens the grader may use. */
const GRADER_MAX_OUTPUT_TOKENS = 4_000;

export const GRADER_SYSTEM_PROMPT =
  "You grade the result of an AI agent's task against success criteria. Judge each criterion only from the result and the list of sources it read; pass is true only when the result clearly meets the criterion. Give a one-sentence reason for each. Answer with JSON only: one entry per criterion, in the given order, with the criterion copied exactly.";

/** The response_format the grader is called with. */
export const GRADES_FORMAT: JsonSchemaFormat = {
  type: "json_schema",
  json_schema: {
    name: "grades",
    strict: true,
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["grades"],
      properties: {
        grades: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["criterion", "pass", "reason"],
            properties: {
              criterion: { type: "string" },
              pass: { type: "boolean" },
              reason: { type: "string" },
            },
          },
        },
      },
    },
  },
};

/** What one grading is about. */
export interface GradingInput {
  model: string;
  task: string;
  criteria: string[];
  result: string;
  sources: { urls: string[]; total: number };
  signal?: AbortSignal;
}

/** A grading: one grade per criterion (all failed on error) and the error, if any. */
export interface Grading {
  grades: Grade[];
  error: string | null;
}

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters not shown]` : text;

/** The grader's user message. */
export function graderPrompt(input: GradingInput): string {
  const criteria = input.criteria.map((c, i) => `${i + 1}. ${c}`).join("\n");
  const more = input.sources.total - input.sources.urls.length;
  const sources = input.sources.urls.length
    ? `${input.sources.urls.map((u) => `- ${u}`).join("\n")}${more > 0 ? `\n(and ${more} more not listed)` : ""}`
    : "(none)";
  return `<task>\n${cut(input.task, GRADER_TASK_CHARS)}\n</task>\n\n<criteria>\n${criteria}\n</criteria>\n\n<sources_read>\n${sources}\n</sources_read>\n\n<result>\n${cut(input.result, GRADER_RESULT_CHARS)}\n</result>`;
}

/** The grades in a grader's answer, one per criterion in order; null when the answer does not fit. */
export function parseGrades(text: string, criteria: string[]): Grade[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return null;
  }
  const list = (parsed as { grades?: unknown })?.grades;
  if (!Array.isArray(list)) return null;
  const valid = list.filter(
    (g): g is Grade =>
      !!g &&
      typeof g === "object" &&
      typeof g.criterion === "string" &&
      typeof g.pass === "boolean" &&
      typeof g.reason === "string",
  );
  if (valid.length !== list.length) return null;
  const norm = (s: string) => s.trim().toLowerCase();
  const out: Grade[] = [];
  for (const [i, criterion] of criteria.entries()) {
    const g =
      valid.find((v) => norm(v.criterion) === norm(criterion)) ??
      (valid.length === criteria.length ? valid[i] : undefined);
    if (!g) return null;
    out.push({ criterion, pass: g.pass, reason: g.reason });
  }
  return out;
}

/** Grades a result; tokens of every attempt go to `onUsage`. Never throws for a bad answer. */
export async function gradeResult(
  client: ModelClient,
  input: GradingInput,
  onUsage: (usage: Usage) => void,
): Promise<Grading> {
  let problem = "";
  for (let attempt = 1; attempt <= GRADER_ATTEMPTS; attempt++) {
    try {
      const turn = await client.complete(
        {
          model: input.model,
          messages: [
            { role: "system", content: GRADER_SYSTEM_PROMPT },
            { role: "user", content: graderPrompt(input) },
          ],
          tools: [],
          responseFormat: GRADES_FORMAT,
          maxOutputTokens: GRADER_MAX_OUTPUT_TOKENS,
          signal: input.signal,
        },
        () => {},
      );
      onUsage(turn.usage);
      const grades = parseGrades(turn.text, input.criteria);
      if (grades) return { grades, error: null };
      problem =
        "the grader's answer was not JSON of the form {grades: [{criterion, pass, reason}]} covering every criterion";
    } catch (err) {
      problem = `the grader call failed: ${(err as Error).message}`;
      if (input.signal?.aborted) break;
    }
  }
  const error = `Grading failed (${GRADER_ATTEMPTS} attempts): ${problem}.`;
  return { grades: input.criteria.map((criterion) => ({ criterion, pass: false, reason: error })), error };
}
