/**
 * The template of where a job's result is saved: `{job}`, `{date}`, `{time}` and `{run}` are
 * filled in per run; anything that could leave the workspace or name an unknown value is refused.
 */
import { FilesError } from "../engine/files/files-error";
import { normalizePath } from "../engine/files/paths";

/** Where results go unless the job says otherwise. */
export const DEFAULT_OUTPUT_PATH = "reports/{job}/{date}-{time}.md";
/** The same place for structured results (a job with an output_schema saves JSON). */
export const DEFAULT_JSON_OUTPUT_PATH = "reports/{job}/{date}-{time}.json";
/** Placeholders a template may use. */
export const PLACEHOLDERS = ["job", "date", "time", "run"] as const;
/** Longest job slug. */
const MAX_SLUG = 60;

/** Values of the placeholders for one run. */
export type PathValues = Record<(typeof PLACEHOLDERS)[number], string>;

/** A file-name-safe form of a job name: lowercase letters, digits and dashes. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/, "");
  return slug || "job";
}

/** Why a template is not accepted, or null. */
export function outputPathProblem(template: string): string | null {
  const unknown = [...template.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => m[1])
    .filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length) {
    return `output_path uses unknown placeholder${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `{${u}}`).join(", ")}; allowed: ${PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}.`;
  }
  const rest = template.replace(/\{(job|date|time|run)\}/g, "x");
  if (/[{}]/.test(rest)) return "output_path has an unmatched { or }.";
  if (template.startsWith("/"))
    return "output_path must be relative to the workspace root, not start with /.";
  if (template.split("/").includes("..")) return 'output_path may not contain ".." segments.';
  if (template.endsWith("/")) return "output_path must name a file, not a folder.";
  try {
    normalizePath(rest);
  } catch (err) {
    if (err instanceof FilesError) return `output_path: ${err.message}`;
    throw err;
  }
  return null;
}

/** The workspace path of one run's result (a template must have passed {@link outputPathProblem}). */
export function renderOutputPath(template: string, values: PathValues): string {
  return normalizePath(
    template.replace(/\{(job|date|time|run)\}/g, (_, name: keyof PathValues) => values[name]),
  );
}
