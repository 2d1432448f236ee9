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
