import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { dropResultCounts } from "../../../../durable-objects/engine/extract/result-counts";

const boots = [
  ["Ridge Mid Hiking Boot", "$149.95"],
  ["Trail Runner Low", "$119.00"],
  ["Alpine GTX Boot", "$229.00"],
  ["Canyon Sandal", "$79.95"],
];

const page = `<html><head><title>Hiking Boots</title></head><body><main>
  <h1>Hiking Boots</h1>
  <p>Boots for day hikes and long trips, fitted in our stores and tested on our own trails every season.</p>
  <div class="listing-summary"><span>1 - 4 of 27 Products</span></div>
  <ul class="grid">${boots
    .map(
      ([n, p]) =>
        `<li class="tile"><h3><a href="/p/${n.length}">${n}</a></h3><span class="price">${p}</span></li>`,
    )
    .join("")}</ul>
  <p>We carry 27 products from nine makers, each resoled in our shop for free in its first year.</p>
</main></body></html>`;

describe("result counts over a listing", () => {
  it("drops a line that only counts the results, keeps a count in a sentence", () => {
    const { markdown } = extractMainContent(page, "https://shop.example/c/boots");
    expect(markdown).not.toContain("of 27 Products");
    expect(markdown).toContain("We carry 27 products from nine makers");
    expect(markdown).toContain("Alpine GTX Boot");
  });

  it("reads the shapes shops print: 'Showing 24 of 193 results', 'Products (338)', a heading '400 Products'", () => {
    const md =
      "Showing 24 of 193 results\n\nProducts (338)\n\n### 400 Products\n\n## 3 Products we love\n\n```\n12 results\n```";
    expect(dropResultCounts(md).trim()).toBe("## 3 Products we love\n\n```\n12 results\n```");
  });
});
