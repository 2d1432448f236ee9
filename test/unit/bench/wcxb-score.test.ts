import { describe, expect, it } from "vitest";
import { markdownAsText, scoreWords } from "../../../bench/wcxb-score";

describe("the WCXB score (the benchmark's evaluate.py)", () => {
  it("scores a page by its bag of words: precision, recall and F1", () => {
    const s = scoreWords("the cat sat on the mat", "the cat sat here");
    expect(s.p).toBeCloseTo(3 / 4);
    expect(s.r).toBeCloseTo(3 / 6);
    expect(s.f1).toBeCloseTo((2 * 0.75 * 0.5) / 1.25);
  });

  it("gives 1 to an empty prediction on a page whose reference is empty, and 0 to anything shown there", () => {
    expect(scoreWords("", "")).toEqual({ p: 1, r: 1, f1: 1 });
    expect(scoreWords(" \n", "— …")).toEqual({ p: 1, r: 1, f1: 1 });
    expect(scoreWords("", "Shop now")).toEqual({ p: 0, r: 0, f1: 0 });
    expect(scoreWords("Some text", "")).toEqual({ p: 0, r: 0, f1: 0 });
  });

  it("scores Markdown without its link targets and its leading title line", () => {
    expect(markdownAsText("# Title\n\nSee [the docs](https://x.example/docs).")).toBe("\nSee [the docs].");
  });
});
