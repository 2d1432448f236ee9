import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const NEWS = [
  "Harbour hotel reopens after a year of work",
  "Ski resort adds a second gondola for winter",
  "City hotels report a busy December",
  "Island lodge wins a sustainability award",
  "New rooftop bar opens above the old station",
];
const page = (items: string) =>
  `<!doctype html><html><head><title>Latest news</title></head><body><main><h1>All latest news</h1><div class="list">${items}</div></main></body></html>`;

describe("links every card of a listing repeats", () => {
  it("removes a card's lone repeated link but keeps its title, its tags and a link in its heading", () => {
    const items = NEWS.map(
      (t, i) =>
        `<article class="item"><h2><a href="/topics/${i}">Travel</a>: <a href="/n/${i}">${t}</a></h2><p>The latest from the trade: what opened, what closed and who moved this week (${i}).</p><p><a href="/tag/hotels">Hotels</a><a href="/tag/europe">Europe</a></p><p><a href="/search?like=${i}">More like this</a></p></article>`,
    ).join("");
    const { markdown } = extractMainContent(page(items), "https://news.example/latest");
    expect(markdown).not.toContain("More like this");
    for (const t of NEWS) expect(markdown).toContain(t);
    expect(markdown.split("[Travel]").length - 1).toBe(NEWS.length);
    expect(markdown.split("[Hotels]").length - 1).toBe(NEWS.length);
    expect(markdown.split("[Europe]").length - 1).toBe(NEWS.length);
  });

  it("keeps a link only some of the cards show", () => {
    const items = NEWS.map(
      (t, i) =>
        `<article class="item"><h2><a href="/n/${i}">${t}</a></h2><p>The latest from the trade: what opened, what closed and who moved this week (${i}).</p>${i < 2 ? `<p><a href="/live/${i}">Follow live</a></p>` : ""}</article>`,
    ).join("");
    const { markdown } = extractMainContent(page(items), "https://news.example/latest");
    expect(markdown.split("Follow live").length - 1).toBe(2);
  });

  it("removes a one-word button every card repeats, which only this pass knows as a control", () => {
    // One word to many places: no repeated link label (two words at least), no control label.
    const items = NEWS.map(
      (t, i) =>
        `<article class="item"><h2><a href="/n/${i}">${t}</a></h2><p>The latest from the trade: what opened, what closed and who moved this week (${i}).</p><p><a href="/saved?add=${i}">Bookmark</a></p></article>`,
    ).join("");
    const url = "https://news.example/latest";
    const expected = NEWS.map(
      (t, i) =>
        `## [${t}](https://news.example/n/${i})\n\nThe latest from the trade: what opened, what closed and who moved this week (${i}).`,
    ).join("\n\n");
    expect(extractMainContent(page(items), url).markdown).toBe(expected);
    const off = withPassesOff(["card-controls"], () => extractMainContent(page(items), url).markdown);
    expect(off.match(/\[Bookmark\]\(https:\/\/news\.example\/saved\?add=\d\)/g)).toHaveLength(NEWS.length);
    expect(off.replace(/\n\n\[Bookmark\]\([^)]*\)/g, "")).toBe(expected);
  });
});
