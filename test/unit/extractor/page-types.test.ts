import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const chrome = `<header class="site-header"><a href="/">Shop</a><a href="/about">About us</a></header>
<div class="cookie-banner">We use cookies to improve your visit.</div>`;
const footer = `<footer><p>© 2026 Example Ltd. All rights reserved.</p></footer>`;
const wrap = (head: string, main: string) =>
  `<!doctype html><html><head><title>Page</title>${head}</head><body>${chrome}<main>${main}</main>${footer}</body></html>`;

describe("main content beyond articles", () => {
  it("keeps every post of a forum thread, with its author and date", () => {
    const post = (n: number, who: string) =>
      `<div class="post" itemscope itemtype="http://schema.org/DiscussionForumPosting"><span class="author">${who}</span><time datetime="2024-05-0${n}">May ${n}, 2024</time><div class="comment-body"><p>Reply number ${n} explains how the boiler pressure should be read, which valve to turn and when to call a plumber instead.</p></div></div>`;
    const html = wrap(
      "",
      `<h1>Boiler keeps losing pressure</h1>${post(1, "dana")}${post(2, "lee")}${post(3, "sam")}`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Reply number ${n} explains`);
    for (const who of ["dana", "lee", "sam"]) expect(markdown).toContain(who);
    for (const junk of ["cookies", "All rights reserved", "About us"]) expect(markdown).not.toContain(junk);
  });

  it("keeps every section of a service page, not only the longest", () => {
    const section = (name: string) =>
      `<section><h2>${name}</h2><p>${name} is included in every plan, set up by our team within a day and supported around the clock by people who know your account.</p></section>`;
    const html = wrap("", ["Hosting", "Backups", "Monitoring", "Support"].map(section).join(""));
    const { markdown } = extractMainContent(html, "https://service.example/");
    for (const name of ["Hosting", "Backups", "Monitoring", "Support"])
      expect(markdown).toContain(`## ${name}`);
  });

  it("keeps the grid of priced product cards that is a category page's content", () => {
    const card = (n: number) =>
      `<li class="card"><a href="/p/${n}">Wool sock ${n}</a><span>$1${n}.00</span></li>`;
    const html = wrap(
      "",
      `<h1>Socks</h1><p>Our socks are knitted from merino wool in Portugal, reinforced at heel and toe, and sized for every foot in the family.</p>
      <div class="filters"><h3>Filter by size</h3><ul><li>S</li><li>M</li><li>L</li></ul></div>
      <ul class="grid">${[1, 2, 3, 4, 5, 6].map(card).join("")}</ul>`,
    );
    const { markdown } = extractMainContent(html, "https://shop.example/socks");
    expect(markdown).toContain("knitted from merino wool");
    for (const n of [1, 6]) expect(markdown).toContain(`[Wool sock ${n}](https://shop.example/p/${n})`);
    expect(markdown).toContain("$13.00");
    expect(markdown).not.toContain("Filter by size");
  });

  it("does not add a JSON-LD description the page shows, though the JSON-LD marks it up (<b>, &#39;)", () => {
    const ld = `<script type="application/ld+json">{"@type":"Product","name":"Trail runner","description":"A <b>light trail shoe</b> with a grippy outsole, a rock plate and a breathable mesh upper for long days in the hills, the maker&#39;s best."}</script>`;
    const html = wrap(
      ld,
      `<h1>Trail runner</h1><p>$120</p><p>A <b>light trail shoe</b> with a grippy outsole, a rock plate and a breathable mesh upper for long days in the hills, the maker's best.</p>`,
    );
    const { markdown } = extractMainContent(html, "https://shop.example/p/trail");
    expect(markdown.match(/grippy outsole/g)).toHaveLength(1);
  });

  it("reads a page whose crawler content sits in a large <noscript>, and survives a stray CDATA marker", () => {
    const posts = Array.from(
      { length: 30 },
      (_, i) =>
        `<div class="crawler-post"><p>Answer ${i} says to renew the certificate with the longer chain option set in the client.</p></div>`,
    ).join("");
    const html = `<!doctype html><html><head><title>Chains</title></head><body><![CDATA[<div id="app"></div>
      <noscript><div id="main-outlet" role="main"><h1>Chains</h1>${posts}</div></noscript>${footer}</body></html>`;
    const { markdown } = extractMainContent(html, "https://community.example/t/2");
    expect(markdown).toContain("Answer 0 says to renew");
    expect(markdown).toContain("Answer 29 says to renew");
  });
  it("drops a large <noscript> that repeats the article the page shows (a crawler copy), keeping one copy", () => {
    const paras = Array.from(
      { length: 24 },
      (_, i) =>
        `<p>Trend ${i} changes how plumbers quote their jobs, since customers compare prices online before they call anyone.</p>`,
    ).join("");
    const html = `<!doctype html><html><head><title>Trends</title></head><body><main><h1>Trends</h1>
      <div class="resource"><div class="pad"><div class="html-data">${paras}</div></div></div><noscript><div class="html-data">${paras}</div></noscript></main>${footer}</body></html>`;
    const { markdown } = extractMainContent(html, "https://blog.example/trends");
    expect(markdown.split("Trend 3 changes how plumbers").length - 1).toBe(1);
    expect(markdown).toContain("Trend 23 changes how plumbers");
  });
  it("keeps visible fields whose class only says their label is hidden, and drops text hidden by class", () => {
    const field = (n: number) =>
      `<div class="field field--label-hidden"><h3>Programme ${n}</h3><p>Programme ${n} runs for six weeks online, with live sessions each Thursday and a certificate at the end.</p></div>`;
    const html = wrap(
      "",
      `<div class="listing">${[1, 2, 3, 4, 5].map(field).join("")}<span class="visually-hidden">Opens in a new window</span></div>`,
    );
    const { markdown } = extractMainContent(html, "https://school.example/programmes");
    for (const n of [1, 3, 5]) expect(markdown).toContain(`Programme ${n} runs for six weeks`);
    expect(markdown).not.toContain("Opens in a new window");
  });
});
