/**
 * First run of `npm run dev`: writes `.dev.vars` from `.dev.vars.example` with fresh random
 * secrets (and any model settings found in the environment), and describes the model set-up
 * for the banner. An existing `.dev.vars` is never touched.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Secrets generated on the first run: each gets 32 random bytes, base64url. */
const GENERATED = ["ADMIN_TOKEN", "SECRETS_KEY", "FILES_SIGNING_SECRET"] as const;
/** Model settings a first run takes from the environment when they are set there. */
const FROM_ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"] as const;

/** The parsed `KEY=value` lines of a vars file (comments and blank lines ignored). */
export function parseVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].trim().replace(/^"(.*)"$/, "$1");
  }
  return out;
}

/** The example with `values` put in place of (or appended after) the lines of those keys. */
export function fillVars(example: string, values: Record<string, string>): string {
  const seen = new Set<string>();
  const lines = example.split(/\r?\n/).map((line) => {
    const m = /^\s*#?\s*([A-Z0-9_]+)\s*=/.exec(line);
    if (!m || !(m[1] in values) || seen.has(m[1])) return line;
    seen.add(m[1]);
    return `${m[1]}=${values[m[1]]}`;
  });
  for (const [k, v] of Object.entries(values)) if (!seen.has(k)) lines.push(`${k}=${v}`);
  return lines.join("\n");
}

/** What the first run did. */
export interface FirstRun {
  created: boolean;
  vars: Record<string, string>;
}

/** Writes `varsPath` from `examplePath` unless it exists; returns the vars in force. */
export function ensureDevVars(
  varsPath: string,
  examplePath: string,
  env: NodeJS.ProcessEnv = process.env,
): FirstRun {
  if (existsSync(varsPath)) return { created: false, vars: parseVars(readFileSync(varsPath, "utf8")) };
  const values: Record<string, string> = {};
  for (const k of GENERATED) values[k] = randomBytes(32).toString("base64url");
  for (const k of FROM_ENV) if (env[k]) values[k] = env[k] as string;
  const text = fillVars(readFileSync(examplePath, "utf8"), values);
  writeFileSync(varsPath, text, { mode: 0o600 });
  return { created: true, vars: parseVars(text) };
}

/** A placeholder key such as the example's `sk-...` counts as no key. */
export function hasModelKey(vars: Record<string, string>): boolean {
  const key = vars.OPENAI_API_KEY ?? "";
  return key.length > 0 && !/^sk-\.\.\.$|^change-me/.test(key);
}

/** The banner printed once wrangler is ready. */
export function banner(url: string, run: FirstRun): string {
  const v = run.vars;
  const model = hasModelKey(v)
    ? `model:     ${v.OPENAI_MODEL || "gpt-4o-mini"} at ${v.OPENAI_BASE_URL || "https://api.openai.com/v1"}`
    : [
        "model:     none configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL) in .dev.vars,",
        "           e.g. a local Ollama: OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=ollama",
        "           OPENAI_MODEL=llama3.1 — then restart `npm run dev`.",
      ].join("\n");
  return [
    "",
    "  Cirrus is running.",
    `  dashboard: ${url}/dashboard/`,
    `  sign in:   ${v.ADMIN_TOKEN ?? "(ADMIN_TOKEN is not set in .dev.vars)"}`,
    `  ${model.replace(/\n/g, "\n  ")}`,
    run.created
      ? "  (.dev.vars was written with new secrets; edit it to change them)"
      : "  (settings from .dev.vars)",
    "",
  ].join("\n");
}
