import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const categories = ["Radios", "Power Banks", "Bluetooth Speakers", "Camera Accessories", "Phone Accessories"];
const tiles = `<ul class="categories">${categories
  .map((c, i) => `<li class="category"><a href="/c/${i}"><h2>${c}</h2></a></li>`)
  .join("")}</ul>`;
const sidebar = `<div id="sidebar"><h4>Product Categories</h4><ul>${categories
  .map((c, i) => `<li><a href="/c/${i}">${c} and more gadgets for travel</a> <span>(${i + 4})</span></li>`)
  .join("")}</ul><h4>Log in</h4><p><a href="/login">Click here to log in to your account</a></p></div>`;
const page = (aside: string) =>
  `<!doctype html><html><head><title>Electronics</title></head><body><div class="page"><div class="content"><h1>Electronics and gadgets</h1>${tiles}</div>${aside}</div></body></html>`;

describe("widgets that are mostly links", () => {
  it("go even when they hold more of a short page's text than its content", () => {
    const { markdown } = extractMainContent(page(sidebar), "https://shop.example/c/electronics");
    expect(markdown).toContain("Bluetooth Speakers");
    expect(markdown).not.toContain("Click here to log in");
    expect(markdown).not.toContain("gadgets for travel");
    // Without chrome-first the sidebar is still on the page when Readability reads it, and is what it picks.
    const off = withPassesOff(
      ["chrome-first"],
      () => extractMainContent(page(sidebar), "https://shop.example/c/electronics").markdown,
    );
    expect(off).toContain("[Click here to log in to your account](https://shop.example/login)");
    expect(off).not.toContain("## Bluetooth Speakers");
  });

  it("go when labelled as chrome (a menu of links longer than the page's own content)", () => {
    const menu = `<div class="shop-menu"><ul>${categories
      .map((c, i) => `<li><a href="/m/${i}">All ${c} in every colour and size</a></li>`)
      .join("")}</ul><p>Need help? <a href="/help">Talk to our gadget experts today</a></p></div>`;
    const { markdown } = extractMainContent(page(menu), "https://shop.example/c/electronics");
    expect(markdown).toContain("Camera Accessories");
    expect(markdown).not.toContain("every colour and size");
  });

  it("stay when they hold most of the text in prose (an FAQ labelled like a filter)", () => {
    const prose = `<div class="sidebar"><h4>About our gadgets</h4><p>Every radio and power bank on this page is tested in our workshop for a week before it is listed, and comes with a two-year warranty and free returns for thirty days after delivery.</p><p>Read the <a href="/guide">buying guide</a> for help.</p></div>`;
    const { markdown } = extractMainContent(page(prose), "https://shop.example/c/electronics");
    expect(markdown).toContain("tested in our workshop");
  });
});
