import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const AUTHORS = ["Ada Brook", "Ben Carver", "Cleo Dunn", "Dev Ellis", "Eva Frost", "Finn Gray"];
const post = (author: string, i: number) =>
  `<div class="post"><h2><a href="/news/${i}">Council report number ${i + 1} on the harbour works</a></h2><p>By ${author} • Dec. ${i + 2}, 2025</p><p>The council's engineers reported on the state of the harbour wall, the new pontoon and the dredging that the winter storms made urgent; this is summary ${i + 1} of the series.</p></div>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Harbour news</title></head><body><header><a href="/">Home</a></header><main>${body}</main><footer><p>The Harbour Gazette.</p></footer></body></html>`;

describe("bylines of the items of a list", () => {
  it("keeps each item's byline when the article credits many different authors (a list of posts)", () => {
    const { markdown } = extractMainContent(
      page(`<h1>Harbour news</h1>${AUTHORS.map(post).join("")}`),
      "https://gazette.example/harbour",
    );
    for (const [i, author] of AUTHORS.entries())
      expect(markdown).toContain(`By ${author} • Dec. ${i + 2}, 2025`);
  });

  it("still removes a story's own byline", () => {
    const story = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the story: the council met late on Tuesday and voted to keep the ferry running through the winter, after the harbour master said the new pontoon would hold.</p>`,
    ).join("");
    const { markdown } = extractMainContent(
      page(`<h1>Ferry to run all winter</h1><p>By Ada Brook • Dec. 2, 2025</p>${story}`),
      "https://gazette.example/ferry",
    );
    expect(markdown).toContain("Paragraph 6 of the story");
    expect(markdown).not.toContain("By Ada Brook");
  });
});
