import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { MAX_MARKUP_CHARS } from "../../../durable-objects/extractor/parse-page";

/**
 * A page's parsed tree and what the steps make of it take about fifty times its markup in memory
 * (the Rust Reference on one page, 2.8 MB of markup once scripts go: 136 MB, past the isolate's
 * 128 MB). The extractor reads the first MAX_MARKUP_CHARS of markup and says the rest was left.
 */
const SECTION = (n: number) =>
  `<section class="chapter"><h2>Chapter ${n}</h2><p>Chapter ${n} of the manual explains how the ferry timetable is printed, folded and posted at every pier of the lake.</p></section>`;
const page = (sections: number) =>
  `<!doctype html><html><head><title>Manual</title></head><body><main><h1>Manual</h1>${Array.from({ length: sections }, (_, i) => SECTION(i + 1)).join("")}</main></body></html>`;

describe("a page longer than the extractor reads", () => {
  it("is read up to MAX_MARKUP_CHARS of markup, and marked truncated", () => {
    const sections = Math.ceil((MAX_MARKUP_CHARS * 1.2) / SECTION(1000).length);
    const { markdown, truncated } = extractMainContent(page(sections), "https://docs.example/manual");
    expect(truncated).toBe(true);
    expect(markdown).toContain("Chapter 1 of the manual explains");
    expect(markdown).not.toContain(`Chapter ${sections} of the manual`);
  });

  it("is whole, and not marked, below it", () => {
    const { markdown, truncated } = extractMainContent(page(200), "https://docs.example/manual");
    expect(truncated).toBeUndefined();
    expect(markdown).toContain("Chapter 200 of the manual explains");
  });
});
