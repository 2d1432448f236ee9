import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";
import { withPassesOff } from "../../../durable-objects/extractor/passes";
import { removeRepeatedLinkLabels } from "../../../durable-objects/extractor/repeated-links";

const trails = [
  "Bear Creek Loop",
  "Granite Ridge Traverse",
  "Cedar Falls Trail",
  "Hidden Lake Path",
  "Summit Meadow Climb",
];

const cleaned = (html: string) => {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document as unknown as DomDocument;
  if (doc.body) removeRepeatedLinkLabels(doc.body);
  return doc.body ? toMarkdown(doc.body) : "";
};

describe("link labels repeated under many items", () => {
  it("drops a short label that leads to many places (a control), keeps the titles", () => {
    const items = trails
      .map(
        (t, i) =>
          `<div class="item"><h3><a href="/t/${i}">${t}</a></h3><p>A walk of ${i + 3} miles.</p><p><a href="/t/${i}/map">See trail map</a></p></div>`,
      )
      .join("");
    const markdown = cleaned(items);
    expect(markdown).not.toContain("See trail map");
    expect(markdown).toContain("### [Hidden Lake Path](/t/3)");
  });

  it("keeps a label repeated in sentences, in table cells, with digits, of one word or to few places", () => {
    const inline = trails
      .map((t, i) => `<p>${t}: read the <a href="/r/${i}">ranger station notes</a> first.</p>`)
      .join("");
    const cells = `<table>${trails.map((t, i) => `<tr><td>${t}</td><td><a href="/n/${i}">lecture notes</a></td></tr>`).join("")}</table>`;
    const dated = trails.map((_, i) => `<p><a href="/d/${i}">2 days ago</a></p>`).join("");
    const single = trails.map((_, i) => `<p><a href="/f/${i}">Download</a></p>`).join("");
    const few = trails
      .slice(0, 3)
      .map((_, i) => `<p><a href="/m/${i}">Open the map</a></p>`)
      .join("");
    const markdown = cleaned(inline + cells + dated + single + few);
    expect(markdown.match(/ranger station notes/g)).toHaveLength(5);
    expect(markdown.match(/lecture notes/g)).toHaveLength(5);
    expect(markdown.match(/2 days ago/g)).toHaveLength(5);
    expect(markdown.match(/Download/g)).toHaveLength(5);
    expect(markdown.match(/Open the map/g)).toHaveLength(3);
  });

  it("runs on the content chosen from a page of no stated type", () => {
    const items = trails
      .map(
        (t, i) =>
          `<li><h2><a href="/t/${i}">${t}</a></h2><p>One of the ${t} walks of the valley, with views over the lake and a picnic spot halfway up the slope.</p><a href="/t/${i}/book">Book a guide</a></li>`,
      )
      .join("");
    const page = (head: string) =>
      `<!doctype html><html><head><title>Trails</title>${head}</head><body><main><h1>Valley trails</h1><ul>${items}</ul></main></body></html>`;
    expect(extractMainContent(page(""), "https://trails.example/").markdown).not.toContain("Book a guide");
  });

  it("drops a pair of action links under each item, which no card pass reads as controls", () => {
    // Two links side by side are tags to the card passes; their labels, the same under each item, are controls here.
    const items = trails
      .map(
        (t, i) =>
          `<li><h2><a href="/t/${i}">${t}</a></h2><p>One of the ${t} walks of the valley, with views over the lake and a picnic spot halfway up the slope.</p><p><a href="/t/${i}/map">See trail map</a> <a href="/t/${i}/book">Book a guide</a></p></li>`,
      )
      .join("");
    const html = `<!doctype html><html><head><title>Trails</title></head><body><main><h1>Valley trails</h1><ul>${items}</ul></main></body></html>`;
    const url = "https://trails.example/";
    const expected = trails
      .map(
        (t, i) =>
          `- ## [${t}](https://trails.example/t/${i})\n  \n  One of the ${t} walks of the valley, with views over the lake and a picnic spot halfway up the slope.`,
      )
      .join("\n");
    expect(extractMainContent(html, url).markdown).toBe(expected);
    const off = withPassesOff(["repeated-link-labels"], () => extractMainContent(html, url).markdown);
    for (const [i] of trails.entries())
      expect(off).toContain(
        `[See trail map](https://trails.example/t/${i}/map) [Book a guide](https://trails.example/t/${i}/book)`,
      );
  });
});
