import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const sentence = (n: number) =>
  `Paragraph ${n} of the care guide: wash the shirt cold with like colours, dry it in the shade and keep it away from strong sunblock.`;
const prose = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `<p>${sentence(from + i)}</p>`).join("");
const fields = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `<dt>field_${i}:</dt><dd>https://cdn.example/images/160x160/thumb_${i}_of_the_colour_swatches.jpg</dd>`,
  ).join("");
const page = (body: string) =>
  `<!doctype html><html><head><title>Staple Tee</title></head><body><div class="product">${body}</div></body></html>`;

describe("class-hidden blocks", () => {
  it("drops a hidden block that outweighs the page when the page shows plenty beside it", () => {
    const { markdown } = extractMainContent(
      page(`<h1>Staple Tee</h1>${prose(1, 36)}<dl class="info hide">${fields(120)}</dl>`),
      "https://shop.example/p/tee",
    );
    expect(markdown).toContain("Paragraph 36 of the care guide");
    expect(markdown).not.toContain("field_7");
  });

  it("keeps a hidden block that holds the page's text when little is shown beside it", () => {
    const { markdown } = extractMainContent(
      page(`<h1>Staple Tee</h1><p>Loading the guide.</p><div class="hidden">${prose(1, 12)}</div>`),
      "https://shop.example/p/tee",
    );
    expect(markdown).toContain("Paragraph 12 of the care guide");
  });
});
