import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { MAX_DEPTH } from "../../../durable-objects/extractor/page-repair";
import { parsePage } from "../../../durable-objects/extractor/parse-page";

/**
 * Tags left open thousands of times nest the page thousands deep, and every step that climbs or
 * descends the tree pays a walk per level (3,000 levels cost seconds, 30,000 half a minute): a
 * page could stall the conversation reading it. A browser builds no element deeper than 512; nor
 * does web_fetch, and the text beneath is kept as paragraphs.
 */
const STORY = [1, 2, 3].map(
  (n) =>
    `<p>Paragraph ${n}: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.</p>`,
);
const nested = (tag: string, depth: number, inner: string) =>
  `<!doctype html><html><head><title>Night buses</title></head><body>${`<${tag}>`.repeat(depth)}${inner}${`</${tag}>`.repeat(depth)}</body></html>`;

function depthOf(root: DomElement): number {
  let max = 0;
  const stack: [DomElement, number][] = [[root, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    max = Math.max(max, top[1]);
    for (let c = top[0].firstElementChild; c; c = c.nextElementSibling) stack.push([c, top[1] + 1]);
  }
  return max;
}

describe("markup nested deeper than a browser builds", () => {
  it("is cut at the browser's depth, its text kept as the paragraphs it was written in", () => {
    const html = nested("div", 3000, STORY.join(""));
    const document = parsePage(html, "https://news.example/buses");
    expect(depthOf(document.documentElement as DomElement)).toBe(MAX_DEPTH + 1);
    const { markdown } = extractMainContent(html, "https://news.example/buses");
    expect(markdown.split("\n\n")).toEqual([
      "Paragraph 1: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.",
      "Paragraph 2: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.",
      "Paragraph 3: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.",
    ]);
  });

  it("leaves a page within the depth as it is, links and all", () => {
    const html = nested("div", 200, `${STORY.join("")}<p>See <a href="/timetable">the timetable</a>.</p>`);
    const document = parsePage(html, "https://news.example/buses");
    expect(depthOf(document.documentElement as DomElement)).toBe(204);
    expect(extractMainContent(html, "https://news.example/buses").markdown).toContain(
      "See [the timetable](https://news.example/timetable).",
    );
  });
});
