import { describe, expect, it } from "vitest";
import { dropDoubledLines } from "../../../durable-objects/extractor/doubled-lines";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const PARAGRAPH =
  "Our spring jacket is cut from a recycled shell that keeps light rain out and packs into its own pocket for travel.";

describe("lines printed twice in a row", () => {
  it("reads a label printed once per layout once", () => {
    const html = `<!doctype html><html><head><title>Spring jacket</title></head><body><main><article><h1>Spring jacket</h1><div class="label-wide">Limited edition colour</div><div class="label-narrow">Limited edition colour</div><p>${PARAGRAPH}</p><p>${PARAGRAPH.replace("spring", "summer")}</p><p>${PARAGRAPH.replace("spring", "autumn")}</p></article></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/jacket");
    expect(markdown.match(/Limited edition colour/g)).toHaveLength(1);
  });

  it("keeps a long line, a table row, code and a line repeated further on", () => {
    const md = [
      PARAGRAPH,
      "",
      PARAGRAPH,
      "",
      "| a | b |",
      "| a | b |",
      "```",
      "done",
      "done",
      "```",
      "Sold out",
      "In stock",
      "Sold out",
    ].join("\n");
    expect(dropDoubledLines(md)).toBe(md);
  });

  it("drops the twin across a blank line and Markdown marks", () => {
    expect(dropDoubledLines("## New in\n\n**New in**\n\nText")).toBe("## New in\n\nText");
  });
});
