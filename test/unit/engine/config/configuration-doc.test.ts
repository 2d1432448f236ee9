/**
 * docs/configuration.md cannot drift from the code: its table names every variable of the one env
 * schema (durable-objects/engine/config/env.ts), each as a var or a secret as the schema treats it;
 * every variable or binding it names anywhere is in the schema or in wrangler.toml; and every
 * binding of wrangler.toml is named. The README's "Configuration essentials" names only real variables.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvVars, SECRET_VARS } from "../../../../durable-objects/engine/config/env";

const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), "utf8");
const doc = read("docs/configuration.md");
const readme = read("README.md");
const toml = read("wrangler.toml");

const VARS = new Set(Object.keys(EnvVars.shape));

/** wrangler.toml's `[vars]` names. */
const tomlVars = [
  ...(/^\[vars\]\n([\s\S]*?)^\[/m.exec(toml)?.[1] ?? "").matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm),
].map((m) => m[1]);
/** wrangler.toml's binding names: `name = "X"` / `binding = "X"` in capitals (the Worker's own name is not). */
const bindings = [...toml.matchAll(/^(?:name|binding)\s*=\s*"([A-Z][A-Z0-9_]*)"/gm)].map((m) => m[1]);

/** The rows of the first table after a heading (or of the file's first table), as cells. */
function tableRows(markdown: string, heading?: string): string[][] {
  const from = heading ? markdown.indexOf(`\n${heading}\n`) : 0;
  if (from < 0) throw new Error(`no section ${heading}`);
  const lines = markdown.slice(from).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  return lines.slice(start + 2, end).map((l) =>
    l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

/** The backticked names of a table cell. */
const namesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** Every variable-like name a text mentions: words with an underscore in capitals, backticked capitals. */
function mentioned(text: string): string[] {
  const words = [...text.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9*]?/g)].map((m) => m[0]);
  const ticked = [...text.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)].map((m) => m[1]);
  return [...new Set([...words, ...ticked])];
}

/** A name is known: a schema variable, a wrangler var or binding; `X_*` stands for some of them. */
function known(name: string): boolean {
  const all = [...VARS, ...tomlVars, ...bindings];
  return name.endsWith("*") ? all.some((n) => n.startsWith(name.slice(0, -1))) : all.includes(name);
}

/** Checks a variables table: each row's names are real, and its kind is theirs. */
function checkTable(rows: string[][]): string[] {
  return rows.flatMap(([names, kind]) =>
    namesIn(names).flatMap((n) => {
      if (!VARS.has(n)) return [`${n}: not a variable of the env schema`];
      const want = SECRET_VARS.has(n) ? "secret" : "var";
      return kind === want ? [] : [`${n}: listed as ${kind}, is a ${want}`];
    }),
  );
}

describe("docs/configuration.md and the code's variables", () => {
  const rows = tableRows(doc);

  it("lists every variable of the env schema in its table", () => {
    const listed = new Set(rows.flatMap(([names]) => namesIn(names)));
    expect(VARS.size).toBeGreaterThan(50);
    expect([...VARS].filter((v) => !listed.has(v))).toEqual([]);
  });

  it("lists in its table only variables of the schema, each with its kind", () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(checkTable(rows)).toEqual([]);
  });

  it("names nothing that the code does not read or wrangler.toml does not declare", () => {
    expect(mentioned(doc).filter((n) => !known(n))).toEqual([]);
  });

  it("names every binding of wrangler.toml, and wrangler.toml declares only variables the code reads", () => {
    expect(bindings.length).toBeGreaterThan(10);
    expect(bindings.filter((b) => !mentioned(doc).includes(b))).toEqual([]);
    expect(tomlVars.filter((v) => !VARS.has(v))).toEqual([]);
  });

  it("the README's essentials name only real variables, each with its kind", () => {
    const essentials = tableRows(readme, "## Configuration essentials");
    expect(essentials.length).toBeGreaterThan(3);
    expect(checkTable(essentials)).toEqual([]);
  });

  it("sees a name that is not a variable (the checks are not vacuous)", () => {
    expect(mentioned("`NOT_A_VAR` and `AI`, FOO_BAR_MS")).toEqual(["NOT_A_VAR", "FOO_BAR_MS", "AI"]);
    expect(known("NOT_A_VAR")).toBe(false);
    expect(known("WIDGET_RATE_LIMIT_*")).toBe(true);
    expect(checkTable([["`MAX_STEPS`, `_PER_VISITOR`", "var"]])).toEqual([
      "_PER_VISITOR: not a variable of the env schema",
    ]);
  });
});
