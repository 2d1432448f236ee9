import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const EXTRACTOR = join(ROOT, "durable-objects/extractor");

/** The library's own sources: vendored Readability and the evals (tooling) aside. */
function librarySources(): string[] {
  return readdirSync(EXTRACTOR, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.startsWith(join(EXTRACTOR, "vendor")) && !f.startsWith(join(EXTRACTOR, "eval")));
}

/** Every function (declaration, method, arrow, expression) of a file longer than `limit` lines. */
function longFunctions(file: string, limit: number): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > limit) found.push(`${relative(ROOT, file)}:${first + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const linesOf = (file: string) => readFileSync(file, "utf8").split("\n").length;

describe("the extractor's size (issue 33)", () => {
  it("has no file over 300 lines and no function over 60", () => {
    const files = librarySources();
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => linesOf(f) > 300).map((f) => relative(ROOT, f))).toEqual([]);
    expect(files.flatMap((f) => longFunctions(f, 60))).toEqual([]);
  });

  it("finds a function over the limit (the check can fail)", () => {
    expect(longFunctions(join(EXTRACTOR, "subtree-text.ts"), 20).length).toBeGreaterThan(0);
  });
});
