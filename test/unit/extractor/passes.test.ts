import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { PASSES, withPassesOff } from "../../../durable-objects/extractor/passes";

const PARAGRAPH =
  "The city council voted on Tuesday to extend the night bus routes to the harbour district, after two years of petitions from the people who work there.";
const STORY = `<!doctype html><html><head><title>Night buses</title></head><body><main><article><h1>Night buses reach the harbour</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH.replace("Tuesday", "Monday")}</p><p><a href="#top">Back to top</a></p></article></main></body></html>`;

describe("the extractor's passes, switched off by name for an ablation", () => {
  it("runs every pass by default and leaves out only the ones named", () => {
    expect(extractMainContent(STORY, "https://news.example/a").markdown).not.toContain("Back to top");
    const without = withPassesOff(["control-labels"], () =>
      extractMainContent(STORY, "https://news.example/a"),
    );
    expect(without.markdown).toContain("Back to top");
    expect(without.markdown).toContain("voted on Monday");
    // The switch holds only for the run it wraps.
    expect(extractMainContent(STORY, "https://news.example/a").markdown).not.toContain("Back to top");
  });

  it("names which passes a page reached, and refuses a name it does not know", () => {
    const seen = new Set<string>();
    withPassesOff([], () => extractMainContent(STORY, "https://news.example/a"), seen);
    expect(seen.has("control-labels")).toBe(true);
    expect(seen.has("product-sections")).toBe(false);
    expect([...seen].every((n) => n in PASSES)).toBe(true);
    expect(() => withPassesOff(["no-such-pass"], () => 1)).toThrow("unknown extractor pass: no-such-pass");
  });

  it("has, for every pass, a test that switches it off alone on a page it changes", () => {
    // Each such test reads its page with the pass on and with it off (a `["name"]` list handed to
    // withPassesOff) and asserts both, so it fails when its pass stops doing its work: the issue's
    // proof, a unit test per pass that fails with the pass removed.
    const dir = import.meta.dirname;
    const switchedOff = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".test.ts"))) {
      const source = readFileSync(join(dir, file), "utf8");
      if (!source.includes("withPassesOff")) continue;
      for (const m of source.matchAll(/\["([a-z-]+)"\]/g)) switchedOff.add(m[1]);
    }
    expect(Object.keys(PASSES).filter((name) => !switchedOff.has(name))).toEqual([]);
  });
});
