import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument, DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { removeRatingInputs } from "../../../../durable-objects/engine/extract/rating-inputs";

const BOOKS = [
  "The Lantern at Harbour End",
  "A Field Guide to Northern Rivers",
  "Seven Winters in the Valley",
  "The Clockmaker's Second Daughter",
  "Letters from the Salt Marsh",
  "Under the Copper Bridge",
  "The Orchard Keeper's Almanac",
  "Night Trains to the Coast",
];
const stars = (labels: string[], cls = "stars", href = (_: number) => "#") =>
  `<div class="${cls}">${labels.map((l, i) => `<a href="${href(i)}">${l}</a>`).join("")}</div>`;
const widget = `<div class="ratingStars"><div class="myRating">Rate this book</div><div class="clearRating">Clear rating</div>${stars(
  [1, 2, 3, 4, 5].map((n) => `${n} of 5 stars`),
)}</div>`;
const rows = (cell: string) =>
  BOOKS.map(
    (b, i) =>
      `<tr><td>${i + 1}</td><td><a href="/book/${i}">${b}</a> by <a href="/author/${i}">Author ${i}</a><br><span>4.${i} avg rating, ${i + 3},120 ratings</span></td><td>${cell}</td></tr>`,
  ).join("");
const page = (cell: string) =>
  `<!doctype html><html><head><title>Best books of the decade</title></head><body><main><h1>Best books of the decade</h1><p>The books readers voted the best of the decade, ranked by their votes.</p><table>${rows(cell)}</table></main></body></html>`;

describe("rate-this controls", () => {
  it("removes a row of star links to nowhere with the rating widget's own words", () => {
    const { markdown } = extractMainContent(page(widget), "https://books.example/list/best");
    expect(markdown).not.toContain("of 5 stars");
    expect(markdown).not.toContain("Rate this book");
    expect(markdown).not.toContain("Clear rating");
    for (const b of BOOKS) expect(markdown).toContain(b);
    expect(markdown).toContain("4.3 avg rating");
  });

  it("removes bare numbered stars only inside a rating-named widget, and keeps numbered links that lead somewhere", () => {
    const numbers = ["1", "2", "3", "4", "5"];
    const read = (html: string) => {
      const doc = parseHTML(`<html><body><div id="c"><p>Your rating:</p>${html}</div></body></html>`)
        .document as unknown as DomDocument;
      const root = doc.querySelector("#c") as DomElement;
      removeRatingInputs(root);
      return (root as unknown as { innerHTML: string }).innerHTML;
    };
    expect(read(stars(numbers, "star-rating"))).not.toContain("<a");
    expect(read(stars(numbers, "numbers"))).toContain('<a href="#">3</a>');
    expect(read(stars(numbers, "star-rating", (i) => `/list/best/${i + 1}`))).toContain("/list/best/3");
  });
});
