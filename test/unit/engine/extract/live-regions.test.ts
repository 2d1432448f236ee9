import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const kettles = [
  ["Gooseneck Pour-Over Kettle", "$49.00"],
  ["Stovetop Whistling Kettle", "$32.50"],
  ["Cast Iron Tetsubin", "$88.00"],
  ["Glass Electric Kettle", "$41.25"],
];

/** A category page whose script announces the results it loaded and what the reader did. */
const page = (status: string) => `<html><head><title>Kettles</title></head><body><main>
  <h1>Kettles</h1>
  <p>Every kettle we sell boils a litre in under five minutes, from the slow pour of a gooseneck to the heft of cast iron.</p>
  <div role="status">loaded 4 results</div>
  <ul class="grid">${kettles
    .map(
      ([name, price]) =>
        `<li class="tile"><h3><a href="/p/${name.length}">${name}</a></h3><span class="price">${price}</span></li>`,
    )
    .join("")}</ul>
  ${status}
  <div aria-live="polite" class="cart-total">Subtotal: $49.00</div>
  <div role="alert"><h3>Store closures</h3><p>Our Denver store is closed this week.</p></div>
</main></body></html>`;

describe("live regions that announce the page's state", () => {
  it("drops a short status announcement, keeps prices and headed notices in live regions", () => {
    const { markdown } = extractMainContent(
      page(`<p aria-live="assertive">Thank you for your feedback</p>`),
      "https://shop.example/kettles",
    );
    expect(markdown).not.toContain("loaded 4 results");
    expect(markdown).not.toContain("Thank you for your feedback");
    expect(markdown).toContain("Cast Iron Tetsubin");
    expect(markdown).toContain("Subtotal: $49.00");
    expect(markdown).toContain("Our Denver store is closed this week.");
  });

  it("keeps a live region that holds a block of text (a carousel's slide)", () => {
    const slide = `<div aria-live="polite"><p>Our founder hammered the first kettle by hand in 1987, and every spout since has been shaped on that same anvil.</p></div>`;
    const { markdown } = extractMainContent(page(slide), "https://shop.example/kettles");
    expect(markdown).toContain("every spout since has been shaped");
  });
});
