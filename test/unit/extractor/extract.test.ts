import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const para = (n: number) =>
  `<p>Paragraph ${n} of the story carries enough words to be scored as real article text by the extractor, with commas, clauses, and detail.</p>`;

function page(body: string): string {
  return `<!doctype html><html><head><title>Town opens a new library</title><script>var x = "<p>not text</p>";</script></head><body>
  <header><nav><a href="/">Home</a><a href="/news">News</a></nav></header>
  <main><article><h1>Town opens a new library</h1>${body}</article></main>
  <footer>© 2026 Town Gazette</footer></body></html>`;
}

describe("main-content extraction", () => {
  it("keeps the article text and drops the repeated title, the byline block, scripts and page chrome", () => {
    const html = page(`<p class="byline">By Jane Doe</p>${[1, 2, 3, 4, 5].map(para).join("")}`);
    const { title, markdown } = extractMainContent(html, "https://gazette.example/library");
    expect(title).toBe("Town opens a new library");
    expect(markdown).toContain("Paragraph 1 of the story");
    expect(markdown).toContain("Paragraph 5 of the story");
    for (const junk of ["By Jane Doe", "not text", "Home", "© 2026", "# Town opens"]) {
      expect(markdown).not.toContain(junk);
    }
  });

  it("cuts the related-stories tail after the article", () => {
    const tail = `<h3>More from News</h3><ul><li><a href="/a">Other story one</a></li><li><a href="/b">Other story two</a></li></ul>`;
    const { markdown } = extractMainContent(
      page([1, 2, 3, 4, 5, 6].map(para).join("") + tail),
      "https://gazette.example/",
    );
    expect(markdown).toContain("Paragraph 6");
    expect(markdown).not.toContain("More from News");
    expect(markdown).not.toContain("Other story");
  });

  it("keeps in-text links absolute and code blocks fenced", () => {
    const body = `${[1, 2, 3].map(para).join("")}<p>See <a href="/docs/setup">the setup guide</a> for the details of the catalogue system.</p><pre><code>npm install library</code></pre>${para(4)}`;
    const { markdown } = extractMainContent(page(body), "https://gazette.example/news/library");
    expect(markdown).toContain("[the setup guide](https://gazette.example/docs/setup)");
    expect(markdown).toContain("```\nnpm install library\n```");
  });

  it("drops boilerplate blocks inside the article by their class, as Readability keeps classes for the cleanup", () => {
    const signup = `<div class="newsletter-signup"><h4>Get the morning briefing</h4><p>Every weekday, the town's news in your inbox before seven o'clock.</p></div>`;
    const body = [1, 2, 3].map(para).join("") + signup + [4, 5].map(para).join("");
    const { markdown } = extractMainContent(page(body), "https://gazette.example/library");
    expect(markdown).toContain("Paragraph 5 of the story");
    for (const junk of ["morning briefing", "in your inbox"]) expect(markdown).not.toContain(junk);
  });

  it("keeps attribute-like text in prose and code while cutting data attributes from tags", () => {
    const body = `${[1, 2, 3].map(para).join("")}<p data-track="{&quot;a&quot;:1}">Set data-mode="dark" on the element to switch themes.</p><pre><code>&lt;div data-mode="dark"&gt;</code></pre>${para(4)}`;
    const { markdown } = extractMainContent(page(body), "https://gazette.example/news/library");
    expect(markdown).toContain('Set data-mode="dark" on the element');
    expect(markdown).toContain('<div data-mode="dark">');
    expect(markdown).not.toContain("data-track");
  });

  it("falls back to the page body when there is no article to find", () => {
    const { markdown } = extractMainContent("<html><body><div>Just one short line.</div></body></html>");
    expect(markdown).toBe("Just one short line.");
  });

  it("reads the publication date a page states in a meta tag named by microdata (itemprop=datePublished)", () => {
    const html = page([1, 2, 3].map(para).join("")).replace(
      "<title>",
      '<meta itemprop="datePublished" content="2026-03-01T09:30:00Z"><title>',
    );
    expect(extractMainContent(html, "https://gazette.example/library").metadata.published_at).toBe(
      "2026-03-01T09:30:00.000Z",
    );
  });
});
