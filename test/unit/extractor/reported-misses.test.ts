import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

/**
 * Content that other extractors' users reported lost (Readability.js, trafilatura and the tools
 * built on them), each on a synthetic page of the reported shape: web_fetch keeps it.
 */
const PARAGRAPH = (n: number) =>
  `<p>Paragraph ${n} of the story tells how the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal after two years of petitions.</p>`;
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>${body}<footer><p>© 2026 Harbour Times</p><a href="/about">About</a></footer></body></html>`;
const read = (html: string) => extractMainContent(html, "https://news.example/story").markdown;

describe("content other extractors were reported to lose", () => {
  it("keeps a paragraph dense with citation links", () => {
    const cited = `<p>Studies <a href="/a">in Norway</a> and <a href="/b">in Finland</a> found <a href="/c">sleep quality</a> in <a href="/d">the polar night</a> drops by <a href="/e">a fifth</a>.</p>`;
    const markdown = read(
      page("Sleep", `<article><h1>Sleep</h1>${PARAGRAPH(1)}${PARAGRAPH(2)}${cited}${PARAGRAPH(3)}</article>`),
    );
    expect(markdown).toContain("[a fifth](https://news.example/e).");
  });

  it("keeps the paragraphs on both sides of an inline 'You may like' widget, and drops the widget", () => {
    const widget = `<div class="inline-widget"><h4>You may like</h4><ul><li><a href="/x">Other story one</a></li><li><a href="/y">Other story two</a></li><li><a href="/z">Other story three</a></li></ul></div>`;
    const markdown = read(
      page(
        "Update",
        `<article><h1>Update</h1>${PARAGRAPH(1)}${PARAGRAPH(2)}<p>This update adds support for agents on the taskbar, through interfaces for developers.</p>${widget}<p>The second change lets you group up to ten games on the home screen and pin them.</p>${PARAGRAPH(3)}</article>`,
      ),
    );
    expect(markdown).toContain("through interfaces for developers.\n\nThe second change lets you group");
    expect(markdown).not.toContain("Other story");
  });

  it("keeps text set straight in <section>s without paragraphs, and several <article>s of one <main>", () => {
    const sections = [1, 2, 3, 4, 5]
      .map(
        (i) =>
          `<section><h2>Part ${i}</h2>We collect the name and e-mail address you give us and keep them while your account is open, part ${i}.</section>`,
      )
      .join("");
    const policy = read(page("Privacy policy", `<main>${sections}</main>`));
    expect(policy).toContain("## Part 1\n\nWe collect");
    expect(policy).toContain("account is open, part 5.");
    const articles = [1, 2, 3, 4]
      .map((i) => `<article><h2>Section ${i}</h2>${PARAGRAPH(i)}</article>`)
      .join("");
    const split = read(page("Privacy", `<main>${articles}</main>`));
    expect(split).toContain("## Section 1\n\nParagraph 1");
    expect(split).toContain("## Section 4\n\nParagraph 4");
  });

  it("keeps a list set straight in <body>, and list items whose text is inside a <span>", () => {
    const bare = `<!doctype html><html><head><title>Standards</title></head><body><h1>Standards</h1>${PARAGRAPH(1)}<ul><li>First point about the standard and how it was chosen.</li><li>Second point about the review.</li><li>Third point about the costs.</li></ul>${PARAGRAPH(2)}${PARAGRAPH(3)}</body></html>`;
    expect(read(bare)).toContain("- First point about the standard and how it was chosen.\n- Second point");
    const spans = `<main><h1>Rights</h1>${PARAGRAPH(1)}<ul><li><span class="content-h7">You have the right to know what we keep about you</span></li><li><span class="content-h7">You have the right to ask us to delete it</span></li></ul>${PARAGRAPH(2)}</main>`;
    expect(read(page("Rights", spans))).toContain(
      "- You have the right to know what we keep about you\n- You have the right",
    );
  });

  it("keeps the lists inside a table's cells", () => {
    const hours = `<table><tr><th>Day</th><th>Hours</th></tr><tr><td>Mon</td><td><ul><li>10:00 AM - 8:00 PM</li></ul></td></tr><tr><td>Tue</td><td><ul><li>Closed</li></ul></td></tr></table>`;
    const markdown = read(
      page("Hours", `<main><h1>Opening hours</h1>${PARAGRAPH(1)}${hours}${PARAGRAPH(2)}</main>`),
    );
    expect(markdown).toContain("| Mon | - 10:00 AM - 8:00 PM |\n| Tue | - Closed |");
  });

  it("keeps paragraphs set in <div>s rather than <p>s", () => {
    const body = [1, 2, 3, 4, 5]
      .map(
        (i) =>
          `<div class="RichText">Paragraph ${i}: drills went on near the island for a third day, the ministry said, with ships and aircraft.</div>`,
      )
      .join("");
    const markdown = read(page("Drills", `<div class="article-section"><h1>Drills</h1>${body}</div>`));
    // Each <div> its own paragraph, none run into the next.
    expect(markdown).toContain("with ships and aircraft.\n\nParagraph 2: drills");
    expect(markdown).toContain("Paragraph 5: drills");
  });
});
