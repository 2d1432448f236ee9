import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { guidePage } from "./guide-page";

const { line, paras, head } = guidePage(
  "Glazing a window",
  "glazing a window",
  "the putty, the pins and the glass",
);
describe("a story's lead in a block labelled a header", () => {
  it("keeps a header-labelled block holding the title and paragraphs of prose, not the page's header", () => {
    const lead = `<p>So you have decided to glaze the window yourself. Between the putty, the pins and the glass there is a lot to choose, and the order in which you do the work matters more than any tool you buy for it.</p><p>This guide takes you through it in the order a glazier would, from taking out the old pane, to cleaning the rebate, to bedding the new glass, so that the putty, the pins and the paint all hold.</p>`;
    const html = `<!doctype html><html>${head}<body><div class="page-header"><a href="/">Glass Co</a><p>Windows since 1950.</p></div>
      <div class="wrap"><section class="listicle-header"><h1>Glazing a window</h1>${lead}</section>
      <div class="listicle-body">${paras(1, 2, 3, 4, 5, 6)}</div></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://glass.example/glaze");
    expect(markdown).toContain("So you have decided to glaze the window yourself.");
    expect(markdown).toContain(line(6));
    expect(markdown).not.toContain("Windows since 1950");
  });
});
