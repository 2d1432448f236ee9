import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { linesOf, longFunctions, tsSources } from "../../support/source-size";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const EXTRACTOR = join(ROOT, "durable-objects/extractor");

describe("the extractor's size (issue 33)", () => {
  it("has no file over 300 lines and no function over 60", () => {
    // The library's own sources: vendored Readability and the evals (tooling) aside.
    const files = tsSources(EXTRACTOR, ["vendor", "eval"]);
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => linesOf(f) > 300).map((f) => relative(ROOT, f))).toEqual([]);
    expect(files.flatMap((f) => longFunctions(f, 60, ROOT))).toEqual([]);
  });

  it("finds a function over the limit (the check can fail)", () => {
    expect(longFunctions(join(EXTRACTOR, "subtree-text.ts"), 20, ROOT).length).toBeGreaterThan(0);
  });
});
