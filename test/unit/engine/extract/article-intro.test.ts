import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const head = `<head><title>Ten rooms to paint this spring</title><meta property="og:type" content="article"></head>`;
const intro = (n: number) =>
  `<p>Intro paragraph ${n} sets out why a spring weekend is the right time to paint a room, what a tin of good paint covers and how long each coat needs to dry.</p>`;
const slide = (n: number) =>
  `<div class="slide"><h2>Room ${n}</h2><div class="slide-body"><p>Room ${n} of the list shows which colour suits it, which brush or roller to use on its walls, and how to mask its windows, doors and skirting boards first.</p><p>For room ${n}, the second coat goes on after four hours, and the tape comes off while the paint is still soft, so that the edges stay clean.</p></div></div>`;
const slides = (count: number) =>
  `<section class="list-body"><div class="slides">${Array.from({ length: count }, (_, i) => slide(i + 1)).join("")}</div></section>`;

describe("a story's introduction printed in its own block above the body", () => {
  it("puts the introduction's paragraphs back at the start of the article", () => {
    const html = `<!doctype html><html>${head}<body><div class="page"><section class="list-header"><h1>Ten rooms to paint this spring</h1><div><div class="list-intro">${intro(1)}${intro(2)}</div></div></section>${slides(8)}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://paint.example/rooms");
    expect(markdown).toContain("Intro paragraph 1 sets out");
    expect(markdown).toContain("Intro paragraph 2 sets out");
    expect(markdown.indexOf("Intro paragraph 2")).toBeLessThan(markdown.indexOf("Room 1 of the list"));
  });

  it("leaves out one paragraph alone, a paragraph printed twice, a block labelled as a disclaimer, and a block far above the body", () => {
    const single = `<!doctype html><html>${head}<body><div class="page"><section class="list-header"><h1>Ten rooms to paint this spring</h1><div><div class="list-intro">${intro(1)}</div></div></section>${slides(8)}</div></body></html>`;
    expect(extractMainContent(single, "https://paint.example/rooms").markdown).not.toContain(
      "Intro paragraph",
    );
    const twice = `<!doctype html><html>${head}<body><div class="page"><section class="list-header"><h1>Ten rooms to paint this spring</h1><div><div class="list-intro">${intro(1)}${intro(1)}</div></div></section>${slides(8)}</div></body></html>`;
    expect(extractMainContent(twice, "https://paint.example/rooms").markdown).not.toContain(
      "Intro paragraph",
    );
    const note = `<!doctype html><html>${head}<body><div class="page"><section class="list-header"><h1>Ten rooms to paint this spring</h1><div><div class="site-disclaimer">${intro(1)}${intro(2)}</div></div></section>${slides(8)}</div></body></html>`;
    expect(extractMainContent(note, "https://paint.example/rooms").markdown).not.toContain("Intro paragraph");
    const gallery = `<div class="gallery">${Array.from({ length: 60 }, (_, i) => `<figure><img src="/p${i}.jpg" alt=""></figure>`).join("")}</div>`;
    const far = `<!doctype html><html>${head}<body><div class="page"><section class="list-header"><h1>Ten rooms to paint this spring</h1><div><div class="list-intro">${intro(1)}${intro(2)}</div></div></section>${gallery}${slides(8)}</div></body></html>`;
    expect(extractMainContent(far, "https://paint.example/rooms").markdown).not.toContain("Intro paragraph");
  });
});
