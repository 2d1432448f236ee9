import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { afterPass } from "./fragment";
import { removeReviewItems } from "../../../../durable-objects/engine/extract/review-items";

const product = `<h1>Desk Riser</h1><p>$249.00</p><p>A standing desk converter of steel and birch that lifts a monitor and a keyboard to standing height in one move.</p>`;
/** A review as shops print them: the reviewer, a date, a star rating, a title and the text. */
const review = (n: number, text: string) =>
  `<div class="shop-review"><div class="shop-review-header"><strong class="author">Buyer ${n}</strong><div class="created">0${n}/16/2023</div><span class="shop-starratings" aria-label="4-Star Rating"><i class="icon-star"></i><i class="icon-star"></i></span></div><h3>Review ${n}</h3><p>${text}</p></div>`;
const long = (n: number) =>
  `Reviewer ${n} used the riser every day for a year: it lifts smoothly, holds two monitors without wobbling, and folds flat when the desk is needed for paper work, though the lever is stiff at first.`;

describe("customer reviews by their shape", () => {
  it("drops a review list that outweighs the product's own text on a page of no stated type", () => {
    const html = `<!doctype html><html><head><title>Desk Riser</title></head><body><main>${product}<section><h2>What buyers think</h2>${[1, 2, 3, 4].map((n) => review(n, long(n))).join("")}</section></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/products/desk-riser");
    expect(markdown).toContain("A standing desk converter of steel and birch");
    expect(markdown).not.toContain("Reviewer 1 used the riser");
    expect(markdown).not.toContain("Buyer 3");
  });

  it("keeps blocks that are not reviews: undated cards with stars, testimonials with no rating", () => {
    const cards = [1, 2, 3]
      .map(
        (n) =>
          `<div class="card"><span class="star-rating">4.5</span><span class="product-name">Riser ${n}</span><p>$${n}9.00</p></div>`,
      )
      .join("");
    const quotes = [1, 2, 3]
      .map(
        (n) =>
          `<div class="testimonial"><p class="author">Client ${n}</p><p>March ${n}, 2024</p><p>They set up our whole office.</p></div>`,
      )
      .join("");
    const html = cards + quotes;
    expect(
      afterPass(html, (root) => removeReviewItems(root, [...root.querySelectorAll("[class], [id]")])),
    ).toBe(html);
  });
});
