import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { cardsOf, MIN_CARDS } from "../../../durable-objects/extractor/card-lists";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const TOWNS = ["Arles", "Bergen", "Cork", "Delft", "Evora", "Fes", "Ghent", "Hue", "Ipoh"];
const post = (town: string) =>
  `<div class="post-card"><h2><a href="/guides/${town.toLowerCase()}">A weekend in ${town}</a></h2><p>Where to sleep, eat and walk in ${town}, with a map.</p></div>`;
const page = (main: string) =>
  `<!doctype html><html><head><title>Guides</title><meta property="og:type" content="article"></head><body><header><a href="/">Home</a></header><main>${main}</main><footer><p>© 2026 Travel notes</p></footer></body></html>`;
const body = (html: string) =>
  parseHTML(`<!doctype html><html>${html}</html>`).document.body as unknown as DomElement;

describe("card lists", () => {
  it("reads a page that calls itself an article but lists posts as the list, every card kept", () => {
    const html = page(
      `<h1>City guides</h1><p>Short guides to small cities. ${"Each one was walked by one of us, with the trains, the beds and the meals we would go back for, written down the same evening. ".repeat(3)}</p><div class="posts">${TOWNS.map(post).join("")}</div>`,
    );
    const { markdown } = extractMainContent(html, "https://travel.example/guides");
    for (const town of TOWNS) {
      expect(markdown).toContain(
        `## [A weekend in ${town}](https://travel.example/guides/${town.toLowerCase()})`,
      );
      expect(markdown).toContain(`Where to sleep, eat and walk in ${town}, with a map.`);
    }
    expect(markdown).toContain("Short guides to small cities.");
    expect(markdown).not.toContain("Travel notes");
  });

  it("reads a real article as an article though a longer strip of cards follows it", () => {
    const text = Array.from(
      { length: 9 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the walk: the path leaves the harbour, climbs past the lighthouse and follows the cliffs for an hour before it drops to a beach where the tide decides how far you can go.</p>`,
    ).join("");
    const teaser = (town: string) =>
      `<div class="teaser"><h3><a href="/guides/${town}">A weekend in ${town}: the old town, the covered market, the river path, the best bakery, the bike hire by the station and a café that opens early</a></h3><p>4 min</p></div>`;
    const html = `<!doctype html><html><head><title>The cliff walk</title><meta property="og:type" content="article"></head><body><main><article><h1>The cliff walk</h1>${text}</article></main><section class="more">${TOWNS.map(teaser).join("")}</section></body></html>`;
    const { markdown } = extractMainContent(html, "https://travel.example/cliff-walk");
    // Readability's reading (the title is the page's, so the text opens on the first paragraph), not the page's region.
    expect(markdown.startsWith("Paragraph 1 of the walk")).toBe(true);
    expect(markdown).toContain("Paragraph 9 of the walk");
  });

  it("finds the run of linked cards, not a menu of one-word links", () => {
    const menu = `<ul class="menu">${TOWNS.map((t) => `<li><a href="/${t}">${t}</a></li>`).join("")}</ul>`;
    const root = body(`<body>${menu}<section class="grid">${TOWNS.map(post).join("")}</section></body>`);
    const list = cardsOf(root.querySelector(".grid") as DomElement, MIN_CARDS);
    expect(list?.node.getAttribute("class")).toBe("grid");
    expect(list?.cards).toBe(9);
    expect(cardsOf(root.querySelector(".menu") as DomElement, MIN_CARDS)).toBeNull();
  });

  it("does not take a comment thread for a card list", () => {
    const comment = (who: string) =>
      `<li class="comment"><a href="/u/${who}">${who} wrote on Monday</a><p>I went there last spring and the market was the best part of the trip.</p></li>`;
    const root = body(`<body><ol class="comment-list">${TOWNS.map(comment).join("")}</ol></body>`);
    expect(cardsOf(root.querySelector("ol") as DomElement, MIN_CARDS)).toBeNull();
  });
});
