import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument, DomElement } from "../../../durable-objects/extractor/dom-types";
import {
  elementsOf,
  LABELLED,
  SECTION_HEADINGS,
  stillUnder,
  walkForChrome,
  walkPage,
} from "../../../durable-objects/extractor/page-walk";

const page = `<!doctype html><html><head><title>Shop</title><meta name="x" content="y"><link rel="icon" href="/i.png"></head>
<body><header id="top"><h1 class="title">Shop</h1></header>
<div role="navigation"><a href="/">Home</a></div>
<main><section aria-labelledby="q1" hidden><p>Answer</p></section><pre>code</pre>
<div style="display: none">Sale</div><iframe src="/ad"></iframe><template><h2>Later</h2></template></main></body></html>`;

const names = (els: DomElement[]) =>
  els.map((el) => el.tagName.toLowerCase() + (el.getAttribute("id") ? `#${el.getAttribute("id")}` : ""));

describe("one walk of the page", () => {
  const doc = parseHTML(page).document as unknown as DomDocument;
  const groups = walkPage(doc, true);

  it("finds the junk tags and the hidden or navigation blocks in the whole document", () => {
    expect(names(groups.junkTags)).toEqual(["meta", "link", "iframe"]);
    expect(names(groups.asidesAndHidden)).toEqual(["div", "section"]);
  });

  it("finds panels and chrome under the body only, skipping what a template holds", () => {
    expect(names(groups.panels)).toEqual(["section"]);
    expect(names(groups.chrome)).toEqual(["header#top", "div"]);
    expect(names(groups.labelled)).toEqual(["header#top", "h1"]);
  });

  it("walks a block's descendants alone for its chrome", () => {
    const main = doc.querySelector("main") as DomElement;
    expect(names(walkForChrome(main).chrome)).toEqual(["div"]);
  });

  it("tells an element removed since the walk, or inside one, from one still there", () => {
    const [header, h1] = groups.labelled;
    expect(stillUnder(h1, doc.body as DomElement)).toBe(true);
    header.remove();
    expect(stillUnder(header, doc)).toBe(false);
    expect(stillUnder(h1, doc.body as DomElement)).toBe(false);
  });

  it("stands in for a later query of the body: the same elements, less those removed since", () => {
    const fresh = parseHTML(page).document as unknown as DomDocument;
    const body = fresh.body as DomElement;
    const walk = { elements: walkPage(fresh, false).bodyElements };
    fresh.querySelector("header")?.remove();
    for (const kind of [LABELLED, SECTION_HEADINGS])
      expect(elementsOf(body, kind, walk)).toEqual([...body.querySelectorAll(kind.selector)]);
    expect(names(elementsOf(body, LABELLED, walk))).toEqual([]);
  });
});
