import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { guidePage } from "./guide-page";

const { line, paras, head } = guidePage(
  "Glazing a window",
  "glazing a window",
  "the putty, the pins and the glass",
);
// Steps set in a wrapper whose class holds one of Readability's negative words ("hidden", "media").
const stepsOf = (ns: number[]) =>
  ns
    .map((n) => `<h3>Step ${n}</h3><p>Press the putty into corner ${n} of the frame with a knife.</p>`)
    .join("");
const stepLinesOf = (ns: number[]) =>
  ns.flatMap((n) => [`### Step ${n}`, `Press the putty into corner ${n} of the frame with a knife.`]);
const steps = stepsOf([1, 2]);
const stepLines = stepLinesOf([1, 2]);

describe("blocks Readability reads as negative by a word inside another word", () => {
  it("keeps an article's block labelled by a layout utility (overflow-hidden) or a media block", () => {
    const html = `<!doctype html><html>${head}<body><article><h1>Glazing a window</h1>${paras(1, 2, 3)}
      <div class="steps overflow-hidden">${steps}</div>${paras(4, 5)}
      <div class="media-block">${stepsOf([3, 4])}</div></article></body></html>`;
    const { markdown } = extractMainContent(html, "https://glass.example/glaze");
    expect(markdown).toBe(
      [line(1), line(2), line(3), ...stepLines, line(4), line(5), ...stepLinesOf([3, 4])].join("\n\n"),
    );
  });

  it("still drops a block named as boilerplate", () => {
    const html = `<!doctype html><html>${head}<body><article><h1>Glazing a window</h1>${paras(1, 2, 3)}
      <div class="sidebar-widget">${steps}</div>${paras(4, 5)}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://glass.example/glaze");
    expect(markdown).toBe([line(1), line(2), line(3), line(4), line(5)].join("\n\n"));
  });
});

describe("a product's folded description labelled by a layout utility", () => {
  it("keeps the description in an overflow-hidden accordion panel beside the product's overview", () => {
    const ld = `<script type="application/ld+json">{"@type":"Product","name":"Pocket driver kit","offers":{"@type":"Offer","price":"19.95"}}</script>`;
    const overview = [1, 2, 3, 4, 5]
      .map(
        (n) =>
          `<p>Overview ${n}: the driver has a knurled aluminium grip, a swivel cap and a magnetic socket that holds each bit firmly while you work.</p>`,
      )
      .join("");
    const panel = `<h3><button aria-expanded="true">Description</button></h3><div role="region" class="overflow-hidden pb-4"><div class="prose"><p>Detail one: sixteen bits in a case the size of a phone, for laptops, consoles and kitchen appliances.</p><p>Detail two: every bit has a long neck to reach screws sunk deep in a housing.</p></div></div>`;
    const html = `<!doctype html><html><head><title>Pocket driver kit</title>${ld}</head><body><main><h1>Pocket driver kit</h1><div class="product-info">${overview}${panel}</div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://tools.example/kit");
    expect(markdown).toContain("Overview 5: the driver");
    expect(markdown).toContain(
      "Detail one: sixteen bits in a case the size of a phone, for laptops, consoles and kitchen appliances.",
    );
    expect(markdown).toContain("Detail two: every bit has a long neck");
  });
});

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
