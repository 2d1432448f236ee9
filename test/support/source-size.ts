/** The house style's size rules, read from the sources: files under 300 lines, functions under 60. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** Every .ts file under `dir`, but those under the folders `skip` names (paths from `dir`). */
export function tsSources(dir: string, skip: string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !skip.some((s) => f.startsWith(join(dir, s))));
}

/** Every function (declaration, method, arrow, expression) of a file longer than `limit` lines, as `path:line`. */
export function longFunctions(file: string, limit: number, root: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > limit) found.push(`${relative(root, file)}:${first + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A file's length in lines, as `wc -l` counts them. */
export const linesOf = (file: string) => readFileSync(file, "utf8").match(/\n/g)?.length ?? 0;
