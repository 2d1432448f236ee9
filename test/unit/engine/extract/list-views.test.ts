import { describe, expect, it } from "vitest";
import { removeListViewCopies } from "../../../../durable-objects/engine/extract/list-views";
import { afterPass } from "./fragment";

const ITEMS = [
  "Tabletop Air Purifier",
  "Large Room Air Purifier",
  "Medium Room Air Purifier",
  "Smart Air Purifier",
  "Turbo Air Purifier",
];
const grid = `<ul class="productGrid">${ITEMS.map((t, i) => `<li><a href="/p/${i}">${t}</a> $${i + 70}.99</li>`).join("")}</ul>`;
const list = (hrefs: (i: number) => string) =>
  `<ul class="productList">${ITEMS.map((t, i) => `<li><h2><a href="${hrefs(i)}">${t}</a></h2><p>Captures 99.97% of allergens in a room of up to ${i + 2}00 square feet.</p> $${i + 70}.99</li>`).join("")}</ul>`;

/** The content after the rule, as HTML. */
const cleaned = (html: string) => afterPass(html, removeListViewCopies);

describe("a listing printed once per view", () => {
  it("keeps the copy with more text of two lists whose items lead to the same pages", () => {
    const html = cleaned(`<h1>Air purifiers</h1>${grid}${list((i) => `/p/${i}`)}`);
    expect(html).not.toContain("productGrid");
    expect(html).toContain("productList");
    expect(html.split("Smart Air Purifier").length - 1).toBe(1);
  });

  it("keeps both lists when their items lead elsewhere", () => {
    const html = cleaned(`<h1>Air purifiers</h1>${grid}${list((i) => `/reviews/${i}`)}`);
    expect(html).toContain("productGrid");
    expect(html).toContain("productList");
  });
});
