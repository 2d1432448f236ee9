import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const lamps = [
  ["Brass Desk Lamp", "$80.00", "$56.00"],
  ["Linen Floor Lamp", "$120.00", "$84.00"],
  ["Glass Pendant Light", "$95.00", "$66.50"],
];

/** A sale price as shops print it: the old and new amounts for the eye, hidden from screen readers, each with its spoken copy. */
const _salePrice = (was: string, now: string) =>
  `<span class="price"><del aria-hidden="true">${was}</del> <span class="screen-reader-text">Original price was: ${was}.</span> <ins aria-hidden="true">${now}</ins><span class="screen-reader-text">Current price is: ${now}.</span></span>`;

const page = (cards: string) =>
  `<!doctype html><html><head><title>Lighting</title></head><body><a class="screen-reader-text" href="#main">Skip to content</a><main id="main"><h1>Lighting</h1><p>Lamps and lights for every room, made in small batches and shipped within two days.</p><ul class="products">${cards}</ul></main></body></html>`;

describe("screen-reader copies of hidden texts", () => {
  it("leaves out the spoken copy of a row of stars (what is hidden shows no words)", () => {
    const cards = lamps
      .map(
        ([name, , now]) =>
          `<li class="product"><h3><a href="/p/${name.length}">${name}</a></h3><span class="tile-price">${now}</span><span aria-hidden="true">★★★★☆</span><span class="sr-only">Rated 4 out of 5 by buyers</span></li>`,
      )
      .join("");
    const { markdown } = extractMainContent(page(cards), "https://lamps.example/c/lighting");
    expect(markdown).toContain("### [Glass Pendant Light](https://lamps.example/p/19)\n  \n  $66.50");
    expect(markdown).not.toContain("Rated 4 out of 5");
  });
});
