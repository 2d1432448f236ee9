import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const DISHES = [
  "Chicken thighs",
  "French toast",
  "Zucchini",
  "Brussels sprouts",
  "Salmon",
  "Tofu",
  "Falafel",
  "Potato wedges",
  "Meatballs",
];
const CATEGORIES = [
  "Breakfast",
  "Lunch",
  "Dinner",
  "Desserts",
  "Salads",
  "Soups",
  "Sides",
  "Snacks",
  "Drinks",
  "Vegan",
  "Paleo",
  "Low carb",
  "Grill",
  "Slow cooker",
  "One skillet",
  "Holiday",
];

const card = (dish: string, i: number) =>
  `<article class="post entry"><header class="entry-header"><h2 class="entry-title"><a href="/recipes/${i}">Air fryer ${dish.toLowerCase()} in twenty minutes</a></h2></header></article>`;
const page = () =>
  `<!doctype html><html><head><title>Air fryer recipes</title><meta property="og:type" content="article"></head><body>` +
  `<div class="side-menu"><ul class="menu">${CATEGORIES.map((c) => `<li class="menu-item"><a href="/category/${c}">${c} recipes</a><ul class="sub-menu"><li><a href="/category/${c}/quick">Quick ${c.toLowerCase()}</a></li></ul></li>`).join("")}</ul></div>` +
  `<div class="site-container"><div class="archive-description"><h1>Air fryer recipes</h1><p>Quick and healthy air fryer recipes, from breakfast to snacks to dinners. We love how the air fryer makes everything crispy in record time with little to no oil, and these are the ones we make every week.</p><p>Every recipe was tested in two baskets and one oven-style fryer, with times for each, and most of them freeze well for the busy nights of the month.</p></div>` +
  `<div class="site-inner"><div class="content-sidebar-wrap"><main class="content">${DISHES.map(card).join("")}</main></div></div></div></body></html>`;

describe("a listing's chrome", () => {
  it("leaves out the site menu beside the cards of a page labelled article, and keeps the layout around <main>", () => {
    const { markdown } = extractMainContent(page(), "https://recipes.example/category/air-fryer");
    for (const dish of DISHES)
      expect(markdown).toContain(`Air fryer ${dish.toLowerCase()} in twenty minutes`);
    expect(markdown).toContain("Quick and healthy air fryer recipes");
    for (const c of CATEGORIES) expect(markdown).not.toContain(`${c} recipes`);
  });
});
