import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H"];
const NAMES = ["brook", "falls", "fork", "run", "creek", "water", "stream", "branch", "river", "canal"];
/** Thirty made-up river names for a letter. */
const riversOf = (letter: string) =>
  NAMES.flatMap((n, i) => ["ton", "ford", "ley"].map((end) => `${letter}${"abcdefghij"[i]}${end} ${n}`));
const section = (letter: string) =>
  `<h2>${letter}</h2><ul>${riversOf(letter)
    .map((r) => `<li><a href="/wiki/${r.replace(/ /g, "_")}">${r}</a></li>`)
    .join("")}</ul>`;
const page = (main: string) =>
  `<!doctype html><html><head><title>List of rivers</title><meta property="og:type" content="article"></head><body><header><a href="/">Home</a></header><main>${main}</main><footer><p>Text is available under a free licence.</p></footer></body></html>`;

describe("link indexes labelled articles", () => {
  it("reads a page of link lists as its region, every list kept, though Readability took the intro and one list", () => {
    const html = page(
      `<h1>List of rivers</h1><div class="lead"><p>This is a list of the rivers of the valley, by name. Streams shorter than a mile, and canals that carry no river, are left out; see the <a href="/wiki/Canals">canals</a> page. A river that changes its name where a tributary joins it is listed under both names, and a river that crosses into the next valley is listed where it rises.</p>${section("A")}</div>${LETTERS.slice(
        1,
      )
        .map((l) => `<div class="section">${section(l)}</div>`)
        .join("")}`,
    );
    const { markdown } = extractMainContent(html, "https://wiki.example/wiki/List_of_rivers");
    expect(markdown).toContain("This is a list of the rivers of the valley, by name.");
    for (const letter of LETTERS) {
      expect(markdown).toContain(`## ${letter}`);
      for (const river of riversOf(letter))
        expect(markdown).toContain(`- [${river}](https://wiki.example/wiki/${river.replace(/ /g, "_")})`);
    }
    expect(markdown).not.toContain("free licence");
  });

  it("reads an article as Readability's article though a larger block of linked teasers follows it", () => {
    const story = Array.from(
      { length: 10 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the story: the council met late on Tuesday and voted to keep the ferry running through the winter, after the harbour master said the new pontoon would hold.</p>`,
    ).join("");
    const teaser = (n: number) =>
      `<li><a href="/news/${n}"><h4>Headline number ${n} about the valley and its towns</h4><p>A short summary of story ${n}, which is a link like the rest of the card.</p><span>${n}H ago</span></a></li>`;
    const html = page(
      `<article><h1>Ferry stays</h1>${story}</article><section><h3>More news</h3><ul>${Array.from({ length: 30 }, (_, i) => teaser(i + 1)).join("")}</ul></section>`,
    );
    const { markdown } = extractMainContent(html, "https://news.example/ferry");
    expect(markdown).toContain("Paragraph 10 of the story");
    expect(markdown).not.toContain("Headline number 1 about the valley");
  });
});
