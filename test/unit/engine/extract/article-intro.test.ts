import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const head = `<head><title>Ten rooms to paint this spring</title><meta property="og:type" content="article"></head>`;
const intro = (n: number) =>
  `<p>Intro paragraph ${n} sets out why a spring weekend is the right time to paint a room, what a tin of good paint covers and how long each coat needs to dry.</p>`;
const slide = (n: number) =>
  `<div class="slide"><h2>Room ${n}</h2><div class="slide-body"><p>Room ${n} of the list shows which colour suits it, which brush or roller to use on its walls, and how to mask its windows, doors and skirting boards first.</p><p>For room ${n}, the second coat goes on after four hours, and the tape comes off while the paint is still soft, so that the edges stay clean.</p></div></div>`;
const slides = Array.from({ length: 8 }, (_, i) => slide(i + 1)).join("");
/** A page whose title and opening stand in a hero block above the list Readability takes. */
const page = (opening: string, between = "") =>
  `<!doctype html><html>${head}<body><div class="hero"><h1>Ten rooms to paint this spring</h1>${opening}</div>${between}<div class="content"><div class="slides">${slides}</div></div></body></html>`;
const read = (html: string) => extractMainContent(html, "https://paint.example/rooms").markdown;

describe("a story's introduction printed in its own block above the body", () => {
  it("puts the introduction's paragraphs back at the start of the article", () => {
    const markdown = read(page(`<div class="hero-text">${intro(1)}${intro(2)}</div>`));
    expect(markdown).toContain("Intro paragraph 1 sets out");
    expect(markdown).toContain("Intro paragraph 2 sets out");
    expect(markdown.indexOf("Intro paragraph 2")).toBeLessThan(markdown.indexOf("Room 1 of the list"));
  });

  it("leaves out one paragraph alone, a paragraph printed twice, a block labelled as junk, and a block far above the body", () => {
    expect(read(page(`<div class="hero-text">${intro(1)}</div>`))).not.toContain("Intro paragraph");
    expect(read(page(`<div class="hero-text">${intro(1)}${intro(1)}</div>`))).not.toContain(
      "Intro paragraph",
    );
    expect(read(page(`<div class="site-disclaimer">${intro(1)}${intro(2)}</div>`))).not.toContain(
      "Intro paragraph",
    );
    const images = Array.from(
      { length: 60 },
      (_, i) => `<figure><img src="/p${i}.jpg" alt=""></figure>`,
    ).join("");
    expect(
      read(
        page(`<div class="hero-text">${intro(1)}${intro(2)}</div>`, `<div class="pictures">${images}</div>`),
      ),
    ).not.toContain("Intro paragraph");
  });
});
