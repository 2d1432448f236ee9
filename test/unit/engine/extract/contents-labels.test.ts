import { describe, expect, it } from "vitest";
import { dropContentsLabels } from "../../../../durable-objects/engine/extract/contents-labels";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const PARAGRAPH =
  "Brake pads wear down with every stop, and replacing them yourself takes an afternoon and a few common tools from the garage.";

describe("a table of contents' label", () => {
  it("goes when its entries are gone", () => {
    const html = `<!doctype html><html><head><title>Brake pads</title></head><body><main><article><h1>How to replace brake pads</h1><div class="ez-toc-title-container"><p class="ez-toc-title">Table of Contents</p></div><h2>What you need</h2><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p><h2>Step by step</h2><p>${PARAGRAPH.replace("Brake", "Worn")}</p><p>${PARAGRAPH.replace("Brake", "Old")}</p></article></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://garage.example/brake-pads");
    expect(markdown).toContain("What you need");
    expect(markdown).not.toContain("Table of Contents");
  });

  it("goes with the in-page links listed under it", () => {
    expect(
      dropContentsLabels(
        "Intro text.\n\n**In this article:**\n\n- [Tools](#tools)\n- [Steps](#steps)\n\n## Tools\n\nA jack.",
      ),
    ).toBe("Intro text.\n\n## Tools\n\nA jack.");
  });

  it("leaves a sentence that names contents, and a contents list that is not links", () => {
    const md = "The contents of the box:\n\n- a charger\n- a cable";
    expect(dropContentsLabels(md)).toBe(md);
    expect(dropContentsLabels("## Contents\n\n- a charger")).toBe("## Contents\n\n- a charger");
    expect(dropContentsLabels("Text.\n\nContents\n\n## Tools")).toBe("Text.\n\n## Tools");
  });
});
