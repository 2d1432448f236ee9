import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/**
 * The title web_fetch gives a page (its `# ` line and `title`) is the page's headline, not its
 * `<title>` with the site's name, nor Readability's cut of it at a colon (its users' long-standing
 * complaint: "Superbugs: What They Are…" lost "Superbugs").
 */
const STORY = [1, 2, 3]
  .map(
    (n) =>
      `<p>Paragraph ${n}: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal after two years of petitions from the islands.</p>`,
  )
  .join("");
const page = (head: string, body: string) =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const read = (html: string) => extractMainContent(html, "https://news.example/2026/story");
const titles = (html: string) => {
  const on = read(html);
  const off = withPassesOff(["headline"], () => read(html));
  return { on: on.title, field: on.metadata.title, off: off.title };
};

describe("the page's headline", () => {
  it("is the h1 its <title> begins with, without the site's name", () => {
    const t = titles(
      page(
        "<title>Pods | Kubernetes</title>",
        `<header><a href="/">Kubernetes</a></header><main><h1>Pods</h1>${STORY}</main>`,
      ),
    );
    expect(t).toEqual({ on: "Pods", field: "Pods", off: "Pods | Kubernetes" });
  });

  it("keeps the words before a colon that Readability cuts away", () => {
    const t = titles(
      page(
        "<title>Superbugs: What They Are and How You Get Them</title>",
        `<article><h1>Superbugs: What they are and how you get them</h1>${STORY}</article>`,
      ),
    );
    expect(t.on).toBe("Superbugs: What they are and how you get them");
    expect(t.off).toBe("What They Are and How You Get Them");
  });

  it("is the h2 the title begins with when the page's only h1 is the book's or site's name in a bar", () => {
    const t = titles(
      page(
        "<title>What is Ownership? - The Rust Programming Language</title>",
        `<div id="menu-bar"><button>Theme</button><h1 class="menu-title">The Rust Programming Language</h1></div><main><h2 id="what-is-ownership"><a class="header" href="#what-is-ownership">What is Ownership?</a></h2>${STORY}</main>`,
      ),
    );
    expect(t.on).toBe("What is Ownership?");
    expect(t.off).not.toBe("What is Ownership?");
  });

  it("never is an h1 that links to the home page (a logo) or names the site", () => {
    const logo = titles(
      page(
        "<title>Porting a parser, day 15</title>",
        `<h1 class="site-title"><a href="https://news.example/">Anna's notes</a></h1><article>${STORY}</article>`,
      ),
    );
    expect(logo.on).toBe("Porting a parser, day 15");
    const site = titles(
      page(
        `<title>Harbour Times: Night buses reach the ferry</title><meta property="og:site_name" content="Harbour Times">`,
        `<h1>Harbour Times</h1><article><h3>Night buses reach the ferry</h3>${STORY}</article>`,
      ),
    );
    expect(site.on).toBe("Night buses reach the ferry");
  });

  it("leaves out a heading's wordless permalink", () => {
    const t = titles(
      page(
        "<title>File system | Node.js Documentation</title>",
        `<header><h1>Node.js documentation</h1></header><div id="apicontent"><h2>File system<span><a class="mark" href="#fs">#</a></span></h2>${STORY}</div>`,
      ),
    );
    expect(t.on).toBe("File system");
  });

  it("keeps a <title> whole when its colon sits inside brackets (no headline in the page)", () => {
    const html = page(
      "<title>Simple Example (libffi: the portable foreign function interface library)</title>",
      `<div class="section"><h3>2.3 Simple Example</h3>${STORY}</div>`,
    );
    expect(read(html).title).toBe("Simple Example (libffi: the portable foreign function interface library)");
  });
});
