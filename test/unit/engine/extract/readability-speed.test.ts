import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import { speedUpReadability } from "../../../../durable-objects/engine/extract/readability-speed";
import { hasSolidText, measureSubtree } from "../../../../durable-objects/engine/extract/subtree-text";

const pageOf = (body: string) =>
  parseHTML(`<!doctype html><html><head><title>Glazing a window</title></head><body>${body}</body></html>`)
    .document;

// Readability's own measures (internal methods of 0.6.0).
type Reader = {
  _getInnerText(el: unknown, normalize?: boolean): string;
  _getLinkDensity(el: unknown): number;
  _isElementWithoutContent(el: unknown): boolean;
  parse(): { content: string; title: string } | null;
};
const readerOf = (document: unknown) => new Readability(document as never) as unknown as Reader;

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
    const reader = readerOf(document);
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

describe("Readability sped up", () => {
  it("measures link density and emptiness as Readability does", () => {
    const document = pageOf(tricky);
    const plain = readerOf(document);
    const fast = readerOf(document);
    speedUpReadability(fast);
    for (const el of document.querySelectorAll("*")) {
      expect(fast._getLinkDensity(el)).toBe(plain._getLinkDensity(el));
      expect(fast._isElementWithoutContent(el)).toBe(plain._isElementWithoutContent(el));
    }
  });

  it("measures nested candidates' link densities together as Readability measures each", () => {
    const document = pageOf(tricky);
    const plain = readerOf(document);
    const fast = readerOf(document) as Reader & { _initializeNode(el: unknown): void };
    speedUpReadability(fast);
    const all = [...document.querySelectorAll("*")];
    for (const el of all) fast._initializeNode(el);
    for (const el of all) expect(fast._getLinkDensity(el)).toBe(plain._getLinkDensity(el));
  });

  it("cleans conditionally as Readability does, block by block", () => {
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
    const cleaned = (fast: boolean) => {
      const document = pageOf(body);
      const root = document.getElementById("root");
      const reader = readerOf(document) as Reader & {
        _markDataTables(el: unknown): void;
        _cleanConditionally(el: unknown, tag: string): void;
      };
      if (fast) speedUpReadability(reader);
      reader._markDataTables(root);
      for (const tag of ["table", "ul", "div"]) reader._cleanConditionally(root, tag);
      return root?.innerHTML ?? "";
    };
    const plain = cleaned(false);
    expect(cleaned(true)).toBe(plain);
    // Not a trivial page: the cleaning both removes blocks and keeps them.
    expect(plain).toContain("Two photos.");
    expect(plain).not.toContain("Tweet");
  });

  it("returns the same article as Readability on a page its conditional cleaning weighs", () => {
    const para = (n: number) =>
      `<p>Paragraph ${n} tells how the putty, the pins and the glass go in, one after the other, with care.</p>`;
    const body = `<article><h1>Glazing a window</h1>${para(1)}${para(2)}
      <div class="gallery"><ul><li><img src="a.jpg"></li><li><img src="b.jpg"></li></ul></div>
      <div class="share-links"><a href="/t">Tweet</a> <a href="/f">Share</a></div>
      <table><tr><th>Part</th><th>Size</th></tr><tr><td>Pin</td><td>12 mm</td></tr></table>
      <div><h3>Tools</h3><ul><li>Knife</li><li>Hammer</li><li><a href="#more">More</a></li></ul></div>
      <div><span>Advertisement</span></div><div>   </div>${para(3)}
      <div class="media"><p>Chart: glass sizes, by frame.</p><a href="/chart">Full chart</a></div>${para(4)}</article>
      <div class="comments"><p>Nice one, thanks!</p></div>`;
    const plain = readerOf(pageOf(body)).parse();
    const reader = readerOf(pageOf(body));
    speedUpReadability(reader);
    const fast = reader.parse();
    expect(fast?.content).toBe(plain?.content);
    expect(fast?.content).toContain("Paragraph 4");
  });
});
