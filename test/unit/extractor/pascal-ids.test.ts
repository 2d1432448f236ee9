import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";
import { removeChrome } from "../../../durable-objects/extractor/region";

const picks = ["Walnut Cutting Board", "Hand-Thrown Mug", "Waxed Canvas Tote", "Beeswax Candle Pair"];

/** An older shop template: its regions are named by PascalCase ids, no header or footer tags. */
const page = `<div id="Container">
  <div id="HeaderUpper"><div id="TopMenu"><ul><li><a href="/account">My Account</a></li><li><a href="/login">Sign in</a></li><li><a href="/cart">Cart</a></li></ul></div></div>
  <div id="Wrapper"><div id="LayoutColumn1">
    <h1>Made by Hand</h1>
    <p>Every piece we carry is vetted by our team to be well made, long lasting and produced by a small workshop that stands behind it.</p>
    <ul>${picks.map((n) => `<li><h3><a href="/p/${n.length}">${n}</a></h3><p>Made in a two-person workshop and finished by hand, the ${n.toLowerCase()} ships in recycled paper.</p></li>`).join("")}</ul>
  </div></div>
  <div id="ContainerFooter"><div id="FooterUpper">
    <h2>Makers Market</h2><ul><li><a href="/about">Our Story</a></li><li><a href="/faq">FAQs</a></li><li><a href="/shipping">Shipping &amp; Returns</a></li></ul>
    <h2>Become a maker</h2><p>Join other makers in our markets!</p>
  </div></div>
</div>`;

const cleaned = (html: string) => {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document as unknown as DomDocument;
  if (doc.body) removeChrome(doc.body);
  return doc.body ? toMarkdown(doc.body) : "";
};

describe("PascalCase ids of an older template's regions", () => {
  it("reads FooterUpper and TopMenu as chrome words: the footer and the account menu go, the picks stay", () => {
    const markdown = cleaned(page);
    expect(markdown).toContain("Walnut Cutting Board");
    expect(markdown).toContain("vetted by our team");
    expect(markdown).not.toContain("Shipping & Returns");
    expect(markdown).not.toContain("Become a maker");
    expect(markdown).not.toContain("My Account");
  });
});
