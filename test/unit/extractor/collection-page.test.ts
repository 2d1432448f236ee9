import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { cleanProductCards } from "../../../durable-objects/extractor/collection-page";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";

const teas = [
  ["Smoked Lapsang Loose Leaf", "$12.50"],
  ["Jasmine Pearls Green Tea", "$18.00"],
  ["First Flush Darjeeling", "$21.75"],
  ["Roasted Barley Herbal Blend", "$9.25"],
];

/** A card of a category grid: image link, title link, price, and what a shop prints around them. */
const card = ([name, price]: string[], extra: string) =>
  `<li class="product-tile"><a href="/p/${name.length}"><img src="/i.jpg" alt=""></a><h3><a href="/p/${name.length}">${name}</a></h3><span class="tile-price">${price}</span>${extra}</li>`;

const grid = (extra: string) => `<ul class="grid">${teas.map((t) => card(t, extra)).join("")}</ul>`;

const body = (html: string) =>
  parseHTML(`<html><body>${html}</body></html>`).document as unknown as DomDocument;

const cleaned = (html: string) => {
  const doc = body(html);
  if (doc.body) cleanProductCards(doc.body);
  return doc.body ? toMarkdown(doc.body) : "";
};

/** The grid as Markdown with nothing but each card's image link, title and price. */
const _plainGrid = teas
  .map(([name, price]) => `- [](/p/${name.length})\n  \n  ### [${name}](/p/${name.length})\n  \n  ${price}`)
  .join("\n");

describe("collection pages: priced card grids", () => {
  it("keeps a card whose class names a widget state, and each card's own tag links", () => {
    const tags = `<p><a href="/t/a">Organic</a><a href="/t/b">Loose</a><a href="/t/c">Caffeine</a></p>`;
    const html = `<ul class="grid">${teas.map((t) => card(t, tags).replace(/^<li class="product-tile">(.*)<\/li>$/, '<li class="product-tile"><div class="tile-body compare-enabled">$1</div></li>')).join("")}</ul>`;
    const markdown = cleaned(html);
    expect(markdown).toContain("### [Jasmine Pearls Green Tea](/p/24)\n  \n  $18.00");
    expect(markdown.match(/\[Organic\]\(\/t\/a\)/g)).toHaveLength(4);
  });

  it("leaves a page without prices alone, and a link only some cards carry", () => {
    const unpriced = `<ul>${teas.map(([n]) => `<li class="post"><a href="/p">${n}</a> <a href="/read">Read on</a></li>`).join("")}</ul>`;
    expect(cleaned(unpriced)).toContain("[Read on](/read)");
    const some = `<ul class="grid">${teas.map((t, i) => card(t, i === 0 ? `<a href="/sale">On sale</a>` : "")).join("")}</ul>`;
    expect(cleaned(some)).toContain("[On sale](/sale)");
  });

  it("returns a category page's grid without the per-card controls", () => {
    const html = `<!doctype html><html><head><title>Loose leaf teas</title></head><body><header><a href="/">Tea Shop</a></header><main><h1>Loose leaf teas</h1><p>Whole-leaf teas from small estates, packed in resealable tins of one hundred grams.</p>${grid(`<a href="/cart" class="btn">Add to basket</a>`)}</main><footer>© Tea Shop</footer></body></html>`;
    const { markdown } = extractMainContent(html, "https://tea.example/c/loose");
    expect(markdown).not.toContain("Add to basket");
    expect(markdown).toContain("### [First Flush Darjeeling](https://tea.example/p/22)\n  \n  $21.75");
  });

  it("keeps a section labelled as a filter that holds prose (an FAQ accordion) and drops the real filter panel", () => {
    const faq = `<div class="accordion-section filters"><h3>How do I brew a loose leaf tea?</h3><div class="accordion-body"><p>Warm the pot first, then use one spoonful of leaves for every cup and pour water just off the boil over them. Green teas like cooler water; steep two to three minutes, taste, and pour it all off the leaves so the last cup is not bitter.</p></div></div>`;
    const filters = `<div class="filters"><h4>Origin</h4><ul><li><a href="?o=cn">China (12)</a></li><li><a href="?o=in">India (9)</a></li></ul></div>`;
    const html = `<!doctype html><html><head><title>Loose leaf teas</title></head><body><main><h1>Loose leaf teas</h1>${filters}<p>Whole-leaf teas from small estates, packed in resealable tins of one hundred grams.</p><p>Every tea on this page is picked in its own season, rolled or twisted by hand and dried slowly, so the leaves open fully in the pot and can be steeped two or three times.</p><p>Tins ship the day after the order from our warehouse and keep the leaves fresh for a year when closed after each use.</p>${grid("")}${faq}</main></body></html>`;
    const { markdown } = extractMainContent(html, "https://tea.example/c/loose");
    expect(markdown).not.toContain("China (12)");
    expect(markdown).toContain(
      "### How do I brew a loose leaf tea?\n\nWarm the pot first, then use one spoonful of leaves for every cup and pour water just off the boil over them. Green teas like cooler water; steep two to three minutes, taste, and pour it all off the leaves so the last cup is not bitter.",
    );
  });

  it("keeps the grid a shop wraps with its filters and pager, and still drops the filter panel itself", () => {
    const eight = [...teas, ...teas.map(([n, p]) => [`${n} Reserve`, p])];
    const cards = eight.map((t) => card(t, "")).join("");
    const filters = `<div class="filter-panel"><h4>Origin</h4><ul><li><a href="?o=cn">China (12)</a></li><li><a href="?o=in">India (9)</a></li></ul></div>`;
    const about = [1, 2].map(
      (n) =>
        `<p>Note ${n} on our teas: every leaf on this page is picked in its own season, rolled by hand and dried slowly, so it opens fully in the pot and can be steeped two or three times over.</p>`,
    );
    const html = `<!doctype html><html><head><title>Loose leaf teas</title></head><body><main><h1>Loose leaf teas</h1>${about.join("")}<div class="catalog-filtering-and-pagination">${filters}<ul class="grid">${cards}</ul><div class="pager"><a href="?page=2">Next page</a></div></div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://tea.example/c/loose");
    expect(markdown).toContain(
      "### [Smoked Lapsang Loose Leaf Reserve](https://tea.example/p/33)\n  \n  $12.50",
    );
    expect(markdown.match(/^ {2}\$\d+\.\d\d$/gm)).toHaveLength(8);
    expect(markdown).toContain("Note 2 on our teas");
    expect(markdown).not.toContain("China (12)");
  });
});
