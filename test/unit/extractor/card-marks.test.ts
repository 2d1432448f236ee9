import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { cleanProductCards } from "../../../durable-objects/extractor/collection-page";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const teas = [
  ["Smoked Lapsang Loose Leaf", "$12.50"],
  ["Jasmine Pearls Green Tea", "$18.00"],
  ["First Flush Darjeeling", "$21.75"],
  ["Roasted Barley Herbal Blend", "$9.25"],
];

/** A card of a category grid: title link, price, and what the shop prints around them. */
const card = ([name, price]: string[], extra: string, heading = "<h3>") =>
  `<li class="product-tile">${heading}<a href="/p/${name.length}">${name}</a></h3><span class="tile-price">${price}</span>${extra}</li>`;

const cleaned = (html: string) => {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document as unknown as DomDocument;
  if (doc.body) cleanProductCards(doc.body);
  return doc.body ? toMarkdown(doc.body) : "";
};

describe("priced cards: marks beside the title and price", () => {
  it("drops the labels and legends left of a card's form controls (checkbox and variant picker cut)", () => {
    const form = `<div class="tile-tools"><label for="c1">Add to comparison</label></div><fieldset class="variants"><legend>More options</legend><a href="/p/v1"></a><a href="/p/v2"></a></fieldset>`;
    const markdown = cleaned(`<ul class="grid">${teas.map((t) => card(t, form)).join("")}</ul>`);
    expect(markdown).not.toContain("Add to comparison");
    expect(markdown).not.toContain("More options");
    expect(markdown).toContain("### [First Flush Darjeeling](/p/22)\n  \n  $21.75");
  });

  it("drops short badges and keeps a title or a long block labelled badge", () => {
    const marks = `<span class="product-badge">Best seller</span><div class="tile-flags"><span>New</span></div><p class="badge-note">Harvested by hand on the high slopes every spring.</p>`;
    const html = `<ul class="grid">${teas.map((t) => card(t, marks, '<h3 class="tile-title tile-badge">')).join("")}</ul>`;
    const markdown = cleaned(html);
    expect(markdown).not.toContain("Best seller");
    expect(markdown).not.toMatch(/^\s*New$/m);
    expect(markdown).toContain("### [Jasmine Pearls Green Tea](/p/24)");
    expect(markdown.match(/Harvested by hand/g)).toHaveLength(4);
  });

  it("reads a CSS module's camelCase class as words: its productBadge goes, the title stays", () => {
    const marks = `<div class="Tile_productBadgeWrap__x8Kq"><div class="Tile_productBadge__Pr2v Tile_newArrival__ix9W">New Arrival</div></div>`;
    const markdown = cleaned(`<ul class="grid">${teas.map((t) => card(t, marks)).join("")}</ul>`);
    expect(markdown).not.toContain("New Arrival");
    expect(markdown).toContain("### [Roasted Barley Herbal Blend](/p/27)");
  });

  it("leaves labels and badges outside a priced grid alone", () => {
    const html = `<ul>${teas.map(([n]) => `<li class="post"><span class="badge">New</span><a href="/p">${n}</a><label>Notes</label></li>`).join("")}</ul>`;
    const markdown = cleaned(html);
    expect(markdown.match(/New/g)).toHaveLength(4);
    expect(markdown).toContain("Notes");
  });

  it("returns a category page's cards as title and price, without their badge and comparison label", () => {
    const marks = `<span class="product-badge">Best seller</span><label for="c">Add to comparison</label>`;
    const html = `<!doctype html><html><head><title>Loose leaf teas</title></head><body><header><a href="/">Tea Shop</a></header><main><h1>Loose leaf teas</h1><p>Whole-leaf teas from small estates, packed in resealable tins of one hundred grams.</p><ul class="grid">${teas.map((t) => card(t, marks)).join("")}</ul></main><footer>© Tea Shop</footer></body></html>`;
    const url = "https://tea.example/c/loose";
    const tile = ([name, price]: string[]) =>
      `- ### [${name}](https://tea.example/p/${name.length})\n  \n  ${price}`;
    const intro = "Whole-leaf teas from small estates, packed in resealable tins of one hundred grams.";
    expect(extractMainContent(html, url).markdown).toBe(`${intro}\n\n${teas.map(tile).join("\n")}`);
    // With the pass off, every card prints its badge and the label of its cut checkbox after the price.
    const off = withPassesOff(["product-cards"], () => extractMainContent(html, url).markdown);
    const withMarks = teas.map((t) => `${tile(t)} Best seller Add to comparison`);
    expect(off).toBe(`${intro}\n\n${withMarks.join("\n")}`);
  });
});
