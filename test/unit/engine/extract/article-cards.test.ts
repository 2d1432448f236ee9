import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const POSTS = [
  "Plastic-free swaps",
  "Mending jeans",
  "Bulk shopping",
  "Composting indoors",
  "Beeswax wraps",
  "Refill shops",
  "Cloth napkins",
  "Repair cafes",
  "Secondhand gifts",
];

const intro = Array.from(
  { length: 7 },
  (_, i) =>
    `<p>Part ${i + 1} of the welcome: nobody is perfectly zero waste, we are all doing the best we can with the shops, the time and the money we have, and small changes made by many people add up to more than a few people doing it perfectly.</p>`,
).join("");
const card = (title: string, i: number) =>
  `<article class="excerpt post-${i}"><header class="excerpt-header"><h2 class="excerpt-title"><a href="/blog/${i}">${title} for beginners: what we tried, what stuck and what we would do again, with the costs</a></h2></header></article>`;
const page = () =>
  `<!doctype html><html><head><title>Zero waste for beginners</title><meta property="og:type" content="article"></head><body><div class="content-posts"><h1>Zero waste for beginners</h1><div class="category-description">${intro}</div><div class="posts">${POSTS.map(card).join("")}</div></div></body></html>`;

describe("an archive whose cards are articles", () => {
  it("keeps the cards under a long category description", () => {
    const { markdown } = extractMainContent(page(), "https://zero.example/category/beginners");
    expect(markdown).toContain("Part 7 of the welcome");
    for (const title of POSTS) expect(markdown).toContain(`${title} for beginners`);
  });
});
