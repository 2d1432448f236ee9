import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { WDocument } from "../../../../../durable-objects/engine/browser/walker/dom";
import { readPage } from "../../../../../durable-objects/engine/browser/walker/read-page";

const doc = (html: string) =>
  parseHTML(`<!doctype html><html><head><title>T</title></head>${html}</html>`)
    .document as unknown as WDocument;
const read = (d: WDocument, selector: string | null = null) => readPage(d, "http://site.test/", selector);

const para = (n: number) =>
  `<p>Paragraph ${n} of the story tells what happened in the town when the river rose above the old bridge.</p>`;
const menu = (name: string) =>
  `<ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/${name}/${i}">${name} ${i}</a></li>`).join("")}</ul>`;
const STORY = `<body><header><nav>${menu("Section")}</nav></header>
  <div class="wrap"><div class="content"><h1>River rises</h1><div>${[1, 2, 3, 4, 5, 6].map(para).join("")}</div></div>
  <aside><h3>Most read</h3>${menu("Popular")}</aside></div>
  <footer><a href="/about">About</a> <a href="/contact">Contact us</a></footer></body>`;

describe("the in-page walker", () => {
  it("reads a story beside long menus first and whole, its heading included", () => {
    const r = read(doc(STORY));
    expect(r.used_selector).toBe("div.content");
    expect(r.content.startsWith("# River rises {h1}")).toBe(true);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(r.content).toContain(`Paragraph ${n} of the story`);
    expect(r.content).not.toContain("Section 3");
    expect(r.content).not.toContain("Popular 3");
  });

  it("outlines the parts outside the story with selectors that find them", () => {
    const d = doc(STORY);
    const lines = read(d).outline.split("\n");
    expect(lines[0]).toBe("Elsewhere (pass a selector to read one):");
    expect(lines.slice(1)).toEqual([
      "- header {header}: 30 links (Section 0, Section 1, …)",
      '- sidebar {aside}: "Most read"; 30 links',
      "- footer {footer}: 2 links (About, Contact us)",
    ]);
    expect(read(d, "aside").content).toContain("[Popular 29](/Popular/29)");
  });

  it("reads a page without much prose whole, from <main> when it has one", () => {
    const form = `<form><input name="q" placeholder="Search"><button>Go</button></form>`;
    expect(read(doc(`<body><nav>${menu("A")}</nav><main>${form}</main></body>`))).toMatchObject({
      used_selector: "main",
      outline: "",
    });
    const whole = read(doc(`<body><nav>${menu("A")}</nav>${form}</body>`));
    expect(whole.used_selector).toBe("body");
    expect(whole.content).toContain("[A 29](/A/29)");
    expect(whole.content).toContain('[text field: Search] {input[name="q"]}');
  });

  it("annotates only links, buttons, fields and section headings, each with one matching selector", () => {
    const d = doc(`<body><main><h2 id="intro">Intro</h2><h4>Small print</h4><p>Text <b>bold</b></p>
      <div><span>x</span><button>Send</button></div><div><button>Send</button></div>
      <a href="/a">A</a><a href="/a">A again</a><select name="plan"><option>free</option></select></main></body>`);
    const r = read(d);
    const selectors = [...r.content.matchAll(/ \{([^{}]+)\}/g)].map((m) => m[1]);
    expect(selectors).toEqual([
      "#intro",
      '[data-c="1"]',
      '[data-c="2"]',
      '[data-c="3"]',
      '[data-c="4"]',
      'select[name="plan"]',
    ]);
    for (const s of selectors) expect(d.querySelectorAll(s).length).toBe(1);
    expect(r.content).toContain("#### Small print\n\nText bold");
  });

  it("keeps a stamp across reads and never reuses a number a page already carries", () => {
    const d = doc(`<body><p data-c="7">own</p><button>One</button><button>Two</button></body>`);
    const first = read(d).content;
    expect(first).toContain('[button: One] {[data-c="8"]}');
    expect(read(d).content).toBe(first);
    expect(d.querySelectorAll('[data-c="8"]').length).toBe(1);
  });

  it("escapes ids for CSS and skips ids that are not unique", () => {
    const d = doc(`<body><a id="1st" href="/x">X</a><a id="dup" href="/y">Y</a><i id="dup"></i></body>`);
    const content = read(d).content;
    expect(content).toContain("{#\\31 st}");
    expect(content).toContain('{a[href="/y"]}');
  });

  it("writes links on the page's origin as paths, to the page itself as #fragments, elsewhere whole", () => {
    const d = doc(`<body><a href="http://site.test/news/a?x=1#top">A</a> <a href="#comments">B</a>
      <a href="https://other.test/c">C</a> <a href="mailto:ed@site.test">D</a> <a href="http://site.test:8080/e">E</a>
      <img alt="Chart" src="/img/chart.png"> <img alt="Lazy" src="data:image/gif;base64,R0lGOD"></body>`);
    const content = read(d).content;
    for (const link of [
      "[A](/news/a?x=1#top)",
      "[B](#comments)",
      "[C](https://other.test/c)",
      "[D](mailto:ed@site.test)",
      "[E](http://site.test:8080/e)",
      "![Chart](/img/chart.png)",
      "![Lazy]",
    ])
      expect(content).toContain(link);
    expect(content).not.toContain("data:");
  });

  it("writes a link once, a target once, and names a link without text by where it goes", () => {
    const d = doc(`<body><a href="/s/1">Storm</a><a href="/s/1">Storm</a> <a href="/s/1">Storm</a> then
      <a href="/s/1">Storm again</a> <a href="/s/2"><img src="/p.png"></a>
      <a href="https://share.test/post?u=http%3A%2F%2Fsite.test%2F&t=River"><i></i></a></body>`);
    const links = [...read(d).content.matchAll(/\[([^\]]*)\](\([^)]*\))? \{/g)].map(
      (m) => `${m[1]} ${m[2] ?? "-"}`,
    );
    expect(links).toEqual(["Storm (/s/1)", "Storm again -", "link: /s/2 -", "link: share.test -"]);
  });

  it("leaves out blocks with no words and a menu shown twice", () => {
    const nav = `<ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul>`;
    const d = doc(
      `<body><main><p>Lead</p>${nav}<ul><li> </li><li>·</li></ul><hr><p>End</p>${nav}</main></body>`,
    );
    expect(read(d).content.split("\n\n")).toEqual([
      "Lead",
      '- [Alpha](/a) {[data-c="1"]}',
      '- [Beta](/b) {[data-c="2"]}',
      "End",
    ]);
  });

  it("folds a list of links inside the story into the outline", () => {
    const more = `<div class="more"><a href="/x/1">Other story one</a> <a href="/x/2">Other story two</a>
      <a href="/x/3">Other story three</a></div>`;
    const d = doc(`<body><div class="story"><h1>River rises</h1>${[1, 2, 3].map(para).join("")}${more}
      ${[4, 5, 6].map(para).join("")}</div></body>`);
    const r = read(d);
    expect(r.used_selector).toBe("div.story");
    expect(r.content).toContain("Paragraph 6 of the story");
    expect(r.content).not.toContain("Other story");
    expect(r.outline).toContain("- section {div.more}: 3 links (Other story one, Other story two, …)");
    expect(read(d, "div.more").content).toContain("[Other story three](/x/3)");
  });

  it("folds a list of teasers (a headline, a link and a line each) inside the story into the outline", () => {
    const teaser = (n: number) =>
      `<li><h4><a href="/t/${n}">Other story ${n}</a></h4><p>A line about other story ${n}, which happened elsewhere in the county last week.</p></li>`;
    const d = doc(`<body><div class="story"><h1>River rises</h1>${[1, 2, 3, 4, 5, 6].map(para).join("")}
      <ul class="more">${[1, 2, 3].map(teaser).join("")}</ul></div></body>`);
    const r = read(d);
    expect(r.content).toContain("Paragraph 6 of the story");
    expect(r.content).not.toContain("Other story");
    expect(r.outline).toContain('- section {ul}: "Other story 1"; 3 links');
  });

  it("reports a bad or unmatched selector", () => {
    const d = doc(STORY);
    expect(read(d, "a[[").error).toBe("bad_selector");
    expect(read(d, "#nothing")).toMatchObject({ error: "no_match", used_selector: "#nothing" });
  });
});
