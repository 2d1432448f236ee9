import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { dropTrailingLinks } from "../../../durable-objects/extractor/trailing-links";
import { guidePage } from "./guide-page";

const { line, paras, head } = guidePage(
  "Proofing bread",
  "proofing bread",
  "the bowl, the cloth and the warm spot",
);

describe("the lines of links after a story", () => {
  it("drops the run of link lines that ends an article", () => {
    const links = `<h3>Read next</h3><h3><a href="/a">Shaping a boule by hand</a></h3><h3><a href="/b">Scoring the loaf before baking</a></h3><h3><a href="/c">Keeping a starter alive</a></h3>`;
    const html = `<!doctype html><html>${head}<body><article><h1>Proofing bread</h1>${paras(1, 2, 3, 4, 5)}${links}</article></body></html>`;
    expect(extractMainContent(html, "https://bake.example/proof").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5)].join("\n\n"),
    );
  });

  it("keeps links followed by text, a single link line, and a run that is much of the content", () => {
    const text = "Paragraph one of the story, long enough to be read as text by anyone.";
    const inside = `${text}\n\n- [Recipe success guide](/a)\n- [Baking guides](/b)\n\nA closing paragraph after the links, in the author's own words.`;
    expect(dropTrailingLinks(inside)).toBe(inside);
    const single = `${text}\n\n[Read the full recipe](/a)`;
    expect(dropTrailingLinks(single)).toBe(single);
    const list = "Tools:\n\n- [Bench scraper](/a)\n- [Proofing basket](/b)\n- [Lame](/c)";
    expect(dropTrailingLinks(list)).toBe(list);
  });

  it("on a page of no stated type, drops them only after prose", () => {
    const teasers = `<h3><a href="/a">Shaping a boule by hand</a></h3><h3><a href="/b">Scoring the loaf before baking</a></h3>`;
    const html = `<!doctype html><html><head><title>Proofing bread</title></head><body><main><h1>Proofing bread</h1>${paras(1, 2, 3, 4, 5)}${teasers}</main></body></html>`;
    expect(extractMainContent(html, "https://bake.example/proof").markdown).not.toContain("Scoring the loaf");
    const items = ["Bread", "Cakes", "Pies", "Rolls", "Buns", "Tarts"].map(
      (x) => `- [${x} and rolls](/${x}) daily`,
    );
    const index = `${items.join("\n")}\n\n[Shaping a boule by hand](/d)\n\n[Scoring the loaf](/e)`;
    expect(dropTrailingLinks(index, true)).toBe(index);
  });
});
