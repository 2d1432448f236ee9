import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { isLinkedProse } from "../../../durable-objects/extractor/linked-prose";

const prose = (name: string) =>
  `${name} is a calm and roomy family car with a long range, a quiet cabin and a boot that swallows a week of luggage, and it charges quickly enough on a motorway stop to make long trips painless for everyone aboard.`;

describe("linked prose", () => {
  it("keeps a ranked item's paragraph when the item ends in links of its own", () => {
    const item = (name: string) =>
      `<li><div class="head"><h2>${name}</h2></div><div class="item-row"><div class="markup"><p>${prose(name)}</p><p><a href="/reviews/${name}">Read the full ${name} review</a></p><p><a href="https://leasing.example/${name}">Compare new car deals with leasing.example</a></p><p><a href="https://used.example/${name}">Compare used car deals with used.example</a></p></div></div></li>`;
    const intro = [1, 2, 3]
      .map(
        (n) =>
          `<p>Our testers drove every car on this list for a month each, on school runs, motorway trips and winter mornings, and measured range, charging speed and comfort the same way for all of them (round ${n}).</p>`,
      )
      .join("");
    const names = ["Kestrel", "Heron", "Osprey", "Plover", "Curlew", "Dunlin"];
    const html = `<!doctype html><html><head><title>Best cars</title><meta property="og:type" content="article"></head><body><main><h1>The best electric cars</h1>${intro}<ol>${names.map(item).join("")}</ol></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://cars.example/best");
    for (const name of names) expect(markdown).toContain(`${name} is a calm and roomy family car`);
  });

  it("does not keep a teaser card, whose heading links to another page", () => {
    const { document } = parseHTML(
      `<div id="card"><h3><a href="/other">Another story worth reading today</a></h3><p>${prose("Heron")}</p><p><a href="/other">Read more</a> · <a href="/topic">Cars</a></p></div>`,
    );
    const card = document.getElementById("card") as unknown as DomElement;
    expect(isLinkedProse(card, 0.25)).toBe(false);
    const heading = card.querySelector("h3");
    if (heading) heading.textContent = "A heading of its own";
    expect(isLinkedProse(card, 0.25)).toBe(true);
  });
});
