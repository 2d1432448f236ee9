import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const teas = [
  "Smoked Lapsang",
  "Jasmine Pearls",
  "First Flush Darjeeling",
  "Roasted Barley Blend",
  "Silver Needle",
  "Iron Goddess Oolong",
  "Genmaicha",
  "Assam Breakfast",
];
const grid = `<ul class="grid">${teas
  .map(
    (t, i) =>
      `<li class="product-tile"><h3><a href="/p/${i}">${t}</a></h3><span class="tile-price">$${10 + i}.50</span></li>`,
  )
  .join("")}</ul>`;
const reviews = `<div class="store-reviews"><p>Our customers say</p><p>Lovely tea and quick delivery, packed with care. Anna, 12/03/2024</p><p>Great service, will order again from this shop. Tom, 02/04/2024</p></div>`;
const guide = `<h2>How to choose a loose leaf tea</h2><p>Start from the teas you already like: a black tea drinker may enjoy a malty Assam, a green tea drinker a toasty Genmaicha. Oolongs sit between the two and reward a few short steeps.</p>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Loose leaf teas</title></head><body><main><h1>Loose leaf teas</h1>${body}</main></body></html>`;

describe("pages of priced results", () => {
  it("keep reviews beside a handful of priced cards (a page about something else)", () => {
    const three = `${grid.split("</li>").slice(0, 3).join("</li>")}</li></ul>`;
    const { markdown } = extractMainContent(page(three + reviews + guide), "https://tea.example/c/loose");
    expect(markdown).toContain("quick delivery");
  });
});
