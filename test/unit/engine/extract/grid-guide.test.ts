import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const grills = [
  "Kettle Grill 57 cm with Lid and Ash Catcher",
  "Kamado Ceramic Grill Classic 18 inch",
  "Rectangular Charcoal Grill with Side Tables",
  "Portable Charcoal Grill for Camping Trips",
  "Vertical Smoker Grill with Two Racks",
  "Stainless Steel Charcoal Grill 1600",
  "Barrel Grill and Offset Smoker Combo",
  "Tabletop Charcoal Grill with Cast Iron Grate",
  "Charcoal Grill on Cart with Storage Shelf",
  "Compact Kamado Grill 13 inch Black",
  "Premium Kettle Grill with Temperature Gauge",
  "Folding Charcoal Grill for Balconies",
];
const grid = `<ul class="products">${grills
  .map(
    (g, i) =>
      `<li class="product-card"><h2><a href="/p/${i}">${g}</a></h2><span class="product-price">${149 + i * 10},00 €</span><p>In stock, delivered within three working days</p></li>`,
  )
  .join("")}</ul>`;
const guide = `<div class="category-description"><h2>How to choose a charcoal grill</h2><p>A charcoal grill gives food the smoky taste that gas cannot match, and choosing one starts with the number of guests you cook for: a 47 cm kettle feeds a family, a 57 cm kettle or a rectangular grill a garden party.</p><p>A lid turns the grill into an oven for roasts and whole fish, and a kamado in thick ceramic holds its heat for hours, which makes it the grill of choice for slow cooking and smoking at low temperatures.</p><p>Look at the grate as well: cast iron marks the meat and keeps its heat, stainless steel is lighter and easier to clean after every meal.</p></div>`;
const page = (outside: string) =>
  `<!doctype html><html><head><title>Charcoal grills</title></head><body><main><h1>Charcoal grills</h1>${grid}</main>${outside}</body></html>`;

describe("a category's guide outside its grid", () => {
  it("follows the grid when the page prints it after the main landmark", () => {
    const { markdown } = extractMainContent(page(guide), "https://grills.example/c/charcoal");
    expect(markdown).toContain("[Kamado Ceramic Grill Classic 18 inch](https://grills.example/p/1)");
    expect(markdown).toContain("holds its heat for hours");
    expect(markdown.indexOf("Folding Charcoal Grill")).toBeLessThan(markdown.indexOf("holds its heat"));
  });

  it("is not printed twice when the region holds it", () => {
    const inside = page("").replace("</main>", `${guide}</main>`);
    const { markdown } = extractMainContent(inside, "https://grills.example/c/charcoal");
    expect(markdown.split("holds its heat for hours").length).toBe(2);
  });
});
