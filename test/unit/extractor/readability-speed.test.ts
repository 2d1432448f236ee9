import { parseHTML } from "linkedom";
import { Readability as StockReadability } from "readability-stock";
import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { MEASURING_HOOKS } from "../../../durable-objects/extractor/readability-speed";
import { hasSolidText, measureSubtree } from "../../../durable-objects/extractor/subtree-text";
import { Readability } from "../../../durable-objects/extractor/vendor/readability/readability.js";

const pageOf = (body: string) =>
  parseHTML(`<!doctype html><html><head><title>Glazing a window</title></head><body>${body}</body></html>`)
    .document;

// Readability's own measures (internal methods of 0.6.0), on the published package.
type Reader = {
  _getInnerText(el: unknown, normalize?: boolean): string;
  _getLinkDensity(el: unknown): number;
  _isElementWithoutContent(el: unknown): boolean;
  _initializeNode(el: unknown): void;
  _measureBlock(el: unknown): Record<string, unknown>;
  _markDataTables(el: unknown): void;
  _cleanConditionally(el: unknown, tag: string): void;
  parse(): { content: unknown; title: string } | null;
};
const stockOf = (document: unknown) => new StockReadability(document as never) as unknown as Reader;
/** The vendored Readability, with our measuring hooks or without any. */
const vendoredOf = (document: unknown, hooked: boolean) =>
  new Readability(document, hooked ? { hooks: MEASURING_HOOKS as never } : {}) as unknown as Reader;

const tricky = `<div id="root">
  <p>  Press the <a href="#step">putty</a>,\u00a0 then\t\tthe <b> pins </b>  </p>
  <ul><li> One,  two </li><li><a href="/x">three</a></li></ul><a href="/after">after</a>
  <template><p>held, in a template</p></template>
  <div>   <span>\n</span>   </div><h2> Step  2 </h2>text<em>joined</em>  end
</div>`;

describe("text measured in one walk", () => {
  it("gives each element the length Readability's inner text has (trimmed, spaces folded)", () => {
    const document = pageOf(tricky);
    const node = document.getElementById("root");
    // Readability makes upper-case elements; a template's content is text but no query reaches it.
    node?.appendChild(document.createElement("P"));
    const root = node as unknown as DomElement;
    const reader = stockOf(document);
    const { lengths, elements, commas } = measureSubtree(root, () => 1);
    expect(lengths[0]).toBe(reader._getInnerText(root).length);
    elements.forEach((el, i) => {
      expect(lengths[i + 1]).toBe(reader._getInnerText(el).length);
    });
    // Every element, the template's content included (a query skips it).
    expect(elements.length).toBe(root.querySelectorAll("*").length + 1);
    expect(commas).toBe((root.textContent ?? "").split(",").length - 1);
    expect(
      measureSubtree(root, (_el, inTemplate) => (inTemplate ? 1 : 0)).elements.map((el) => el.localName),
    ).toEqual(["p"]);
  });

  it("tells an element holding only whitespace from one holding text", () => {
    const document = pageOf(`<div id="a"> <span>\n</span><b> </b></div><div id="b"> <i></i> <b> x</b></div>`);
    expect(hasSolidText(document.getElementById("a") as never)).toBe(false);
    expect(hasSolidText(document.getElementById("b") as never)).toBe(true);
  });
});

describe("Readability's measuring hooks", () => {
  it("measure link density, emptiness and a block as Readability does", () => {
    const document = pageOf(tricky);
    const stock = stockOf(document);
    const plain = vendoredOf(document, false);
    const hooks = MEASURING_HOOKS;
    for (const el of document.querySelectorAll("*") as unknown as DomElement[]) {
      expect(hooks.linkDensity?.(el)).toBe(stock._getLinkDensity(el));
      expect(!hooks.hasText?.(el)).toBe(!(el.textContent ?? "").trim().length);
      const fast = hooks.measureBlock?.(el);
      const own = plain._measureBlock(el);
      expect({ ...fast, shortText: null, embeds: Array.from(fast?.embeds ?? []) }).toEqual({
        ...own,
        shortText: null,
        embeds: [...(own.embeds as DomElement[])],
      });
      if (fast?.shortText !== null) expect(fast?.shortText).toBe(own.shortText);
    }
  });

  it("measure nested candidates' link densities together as Readability measures each", () => {
    const document = pageOf(tricky);
    const stock = stockOf(document);
    const all = [...document.querySelectorAll("*")] as unknown as DomElement[];
    for (const el of all) stock._initializeNode(el);
    const densities = MEASURING_HOOKS.linkDensities?.(all);
    for (const el of all) expect(densities?.get(el)).toBe(stock._getLinkDensity(el));
  });

  it("make the conditional cleaning keep and drop the blocks Readability's does", () => {
    const para = "<p>The putty goes in first, then the pins, then the glass, pressed in with care.</p>";
    const blocks = [
      `<div>${para}${para}</div>`,
      `<div><a href="/a">Tweet</a> <a href="/b">Share</a></div>`,
      `<div><a href="#top">Back to top of the page</a> and more words here to read</div>`,
      `<div><img src="a.jpg"><img src="b.jpg"><p>Two photos.</p></div>`,
      `<div><ul><li><img src="a.jpg"></li><li><img src="b.jpg"></li></ul></div>`,
      `<ul><li><img src="a.jpg"></li><li><img src="b.jpg"></li></ul>`,
      `<ul><li><a href="/1">One</a></li><li><a href="/2">Two</a></li></ul>`,
      `<div><h3>Tools</h3><ul><li>Knife</li><li>Hammer</li></ul></div>`,
      `<div><span>Advertisement</span></div>`,
      `<div> Loading... </div>`,
      `<div class="sidebar">${para}</div>`,
      `<div class="overflow-hidden">${para}</div>`,
      `<div><input type="text"><input type="text"><p>Name</p></div>`,
      `<div><iframe src="https://www.youtube.com/embed/x"></iframe></div>`,
      `<div><iframe src="https://ads.example/x"></iframe>Short</div>`,
      `<div><table><tr><th>Part</th><th>Size</th></tr><tr><td><a href="/pin">Pin</a></td><td>12 mm</td></tr></table></div>`,
      `<div>Red, green, blue: <a href="/c">see all the colours we sell</a></div>`,
      `<div>Words<template><span>held</span></template></div>`,
      `<div><ul><li><a href="/1">First link</a></li><li><a href="/2">Second</a></li></ul>and more</div>`,
      `<table><tr><td><a href="/x">Home</a></td></tr></table>`,
      `<div><h2>Only a heading</h2></div>`,
      `<div><h4><span>Short heading</span> <a href="#x">x</a></h4></div>`,
      `<div><b>, , , , , , , , , , ,</b><a href="/x">link</a></div>`,
      `<div><template><p>held</p></template><a href="/x">link</a></div>`,
      `<figure><div><a href="/x">Credit</a></div></figure>`,
      `<pre><code><div><a href="/x">in code</a></div></code></pre>`,
    ];
    const body = `<div id="root">${blocks.join("\n")}</div>`;
    const cleaned = (reader: (document: unknown) => Reader) => {
      const document = pageOf(body);
      const root = document.getElementById("root");
      const r = reader(document);
      r._markDataTables(root);
      for (const tag of ["table", "ul", "div"]) r._cleanConditionally(root, tag);
      return root?.innerHTML ?? "";
    };
    const stock = cleaned(stockOf);
    expect(cleaned((d) => vendoredOf(d, true))).toBe(stock);
    expect(cleaned((d) => vendoredOf(d, false))).toBe(stock);
    // Not a trivial page: the cleaning both removes blocks and keeps them.
    expect(stock).toContain("Two photos.");
    expect(stock).not.toContain("Tweet");
  });

  it("leave Readability's article as published Readability returns it, retries included", () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} tells how the putty, the pins and the glass go in, one after the other, with care.</p>`;
    const long = `<article><h1>Glazing a window</h1>${para(1)}${para(2)}
      <div class="gallery"><ul><li><img src="a.jpg"></li><li><img src="b.jpg"></li></ul></div>
      <div class="share-links"><a href="/t">Tweet</a> <a href="/f">Share</a></div>
      <table><tr><th>Part</th><th>Size</th></tr><tr><td>Pin</td><td>12 mm</td></tr></table>
      <div><h3>Tools</h3><ul><li>Knife</li><li>Hammer</li><li><a href="#more">More</a></li></ul></div>
      <div><span>Advertisement</span></div><div>   </div>${para(3)}<aside>Also read</aside>
      <div class="media"><p>Chart: glass sizes, by frame.</p><a href="/chart">Full chart</a></div>${para(4)}</article>
      <div class="comments"><p>Nice one, thanks!</p></div>`;
    // Under 500 characters in a block read as a sidebar: Readability retries with its flags off,
    // from its copy of the page.
    const short = `<div class="sidebar"><p>${"A short note on putty, pins and glass. ".repeat(4)}</p>
      <p class="byline">By A. Glazier</p><div style="display:none"><p>Hidden text.</p></div></div>`;
    for (const body of [long, short]) {
      const stock = stockOf(pageOf(body)).parse();
      const ours = new Readability(pageOf(body), { hooks: MEASURING_HOOKS as never }).parse();
      expect(ours?.content).toBe(stock?.content);
      expect(ours?.byline).toBe((stock as unknown as { byline: string }).byline);
      expect(ours?.content).toContain(body === long ? "Paragraph 4" : "A short note");
    }
  });
});
