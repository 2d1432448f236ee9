import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument, DomElement } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";
import { dropRepeatedLines } from "../../../durable-objects/extractor/product-page";
import { mainRegion } from "../../../durable-objects/extractor/region";

const productLd = `<script type="application/ld+json">{"@type":"Product","name":"Trail Kettle","offers":{"@type":"Offer","price":"40"}}</script>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Trail Kettle</title>${productLd}</head><body><header class="site-header"><a href="/">Home</a></header><main>${body}</main><footer><p>© 2026 Shop</p></footer></body></html>`;
const about = `<h1>Trail Kettle</h1><p>$40.00</p><h2>Description</h2><p>A one-litre kettle of brushed steel that boils on a camp stove in four minutes and packs flat into a side pocket.</p><p>The spout pours without dripping, the lid stays on when the kettle is tipped, and the base spreads the heat of a small flame.</p><h2>Specifications</h2><ul><li>Capacity: 1 litre</li><li>Weight: 310 g</li></ul>`;

describe("product pages", () => {
  it("prints a line the page repeats in another layout once, keeping short lines, table rows and code", () => {
    expect(
      dropRepeatedLines(
        "- Free Shipping & Returns\n- Built Tough\n\nFree Shipping & Returns\nBuilt Tough\n\n| Size | One size fits all |\n| Size | One size fits all |\n\n```\nmake it so now\nmake it so now\n```",
      ),
    ).toBe(
      "- Free Shipping & Returns\n- Built Tough\n\nBuilt Tough\n\n| Size | One size fits all |\n| Size | One size fits all |\n\n```\nmake it so now\nmake it so now\n```",
    );
  });

  it("drops the lines of a block that repeat an earlier list word for word, keeping its new line", () => {
    const features = [
      "The lid locks shut for the trip in the pack",
      "The handle folds flat over the lid",
      "The base spreads the heat of a small flame",
    ];
    const html = page(
      `${about}<h2>Features</h2><ul>${features.map((f) => `<li>${f}</li>`).join("")}</ul><h2>Why it works</h2><p>${features.join("<br>")}<br>Tested on three winters of trips in the hills.</p>`,
    );
    const { markdown } = extractMainContent(html, "https://shop.example/p/kettle");
    expect(markdown.match(/The handle folds flat over the lid/g)).toHaveLength(1);
    expect(markdown.match(/The base spreads the heat of a small flame/g)).toHaveLength(1);
    expect(markdown).toContain("## Why it works\n\nTested on three winters of trips in the hills.");
    // With the pass off, the block prints the list's lines a second time.
    const off = withPassesOff(["product-repeats"], () =>
      extractMainContent(html, "https://shop.example/p/kettle"),
    ).markdown;
    expect(off.match(/The handle folds flat over the lid/g)).toHaveLength(2);
  });

  it("drops a cookie-settings dialog that outweighs a short product page", () => {
    const dialog = `<section role="dialog" aria-modal="true"><h2>Customize your settings</h2>${[1, 2].map((n) => `<h4>Group ${n}</h4><p>These technologies store small files on your device so the site remembers choices made in the past, like the region you are in.</p>`).join("")}</section>`;
    const html = `<!doctype html><html><head><title>Lamp</title></head><body><div class="page"><h1>Desk Lamp</h1><p>A desk lamp with a weighted base and a two-metre cable, sold with a warm bulb.</p><p>The arm turns on two joints and holds its place; the shade stays cool after an evening of reading.</p><p>Made of steel and painted by hand in three colours, with a switch on the cable.</p>${dialog}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/p/lamp");
    expect(markdown).toContain("A desk lamp with a weighted base");
    expect(markdown).not.toContain("Customize your settings");
    expect(markdown).not.toContain("small files on your device");
  });

  it("drops the shop's badges, selling-point strip and loyalty offer beside the product", () => {
    const badge = `<span class="product-badge">Best seller</span>`;
    const usps = `<ul class="product-usps"><li>Free standard delivery on orders over $75</li><li>Thirty-day returns on every order</li></ul>`;
    const rewards = `<div class="rewards-cta"><p>Earn up to 400 points with this order when you join the club</p></div>`;
    const { markdown } = extractMainContent(
      page(badge + about + usps + rewards),
      "https://shop.example/p/kettle",
    );
    expect(markdown).toContain("A one-litre kettle of brushed steel");
    expect(markdown).toContain("- Weight: 310 g");
    expect(markdown).not.toContain("Best seller");
    expect(markdown).not.toContain("Free standard delivery");
    expect(markdown).not.toContain("Earn up to 400 points");
  });

  it("drops the small print under the product: a legal notice, a disclaimer and footnotes", () => {
    const legal = `<div id="game_area_legal"><p>Trail Kettle is a registered trademark of the maker in several countries. All rights reserved.</p></div>`;
    const disclaimer = `<p class="pdp-disclaimer">Boiling times measured at sea level; results may vary with the stove and the weather.</p>`;
    const footnotes = `<ol class="footnotes"><li>Weight measured without the lid and the carry pouch.</li></ol>`;
    const { markdown } = extractMainContent(
      page(about + legal + disclaimer + footnotes),
      "https://shop.example/p/kettle",
    );
    expect(markdown).toContain("A one-litre kettle of brushed steel");
    expect(markdown).toContain("- Weight: 310 g");
    expect(markdown).not.toContain("registered trademark");
    expect(markdown).not.toContain("results may vary");
    expect(markdown).not.toContain("without the lid and the carry pouch");
  });
});

describe("product page region", () => {
  it("goes down from <main> to the product's block when a small widget of other text sits beside it", () => {
    const lines = [1, 2, 3, 4, 5, 6]
      .map(
        (n) =>
          `<li>Feature ${n}: the kettle's steel body is folded from one sheet and welded at the seam</li>`,
      )
      .join("");
    const html = `<!doctype html><html><body><main><div class="product"><h1>Trail Kettle</h1><ul>${lines}</ul></div><div class="perks"><p>Members earn points on every order placed this week.</p></div></main></body></html>`;
    const body = (parseHTML(html).document as unknown as DomDocument).body as DomElement;
    const product = mainRegion(body.cloneNode(true), true).node.textContent ?? "";
    expect(product).toContain("Feature 6: the kettle's steel body");
    expect(product).not.toContain("Members earn points");
    expect(mainRegion(body, false).node.textContent).toContain("Members earn points");
  });
});
