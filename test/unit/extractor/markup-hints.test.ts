import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { markupMay } from "../../../durable-objects/extractor/markup-hints";
import { parsePage } from "../../../durable-objects/extractor/parse-page";

const TABS = /role\s*=\s*["']?\s*(region|tabpanel)/i;
const HIDDEN_ATTR = /[\s"'/]hidden(?=[\s=>/])/i;
const NAVIGATION = /role\s*=\s*["']?\s*navigation/i;

describe("markup hints (walks skipped for attributes the page's text never names)", () => {
  it("answers from the text a page was parsed from, for the page and its elements", () => {
    const doc = parsePage(
      `<html><body><div role="TabPanel" class="hidden-xs"><p>Plans</p></div></body></html>`,
    );
    expect(markupMay(doc, TABS)).toBe(true);
    expect(markupMay(doc.querySelector("p") as never, TABS)).toBe(true);
    // `hidden` as part of a class word is not the attribute.
    expect(markupMay(doc, HIDDEN_ATTR)).toBe(false);
    expect(markupMay(doc, NAVIGATION)).toBe(false);
  });

  it("finds the boolean hidden attribute however the tag spells it", () => {
    for (const tag of [`<div hidden>`, `<div class="a"hidden>`, `<div\nHIDDEN="">`, `<div/hidden>`])
      expect(markupMay(parsePage(`<body>${tag}x</div></body>`), HIDDEN_ATTR)).toBe(true);
  });

  it("counts the roles the page's repairs give (panels opened by aria-controls)", () => {
    const fold = (n: number) =>
      `<button aria-controls="q${n}">Question ${n}</button><div id="q${n}" hidden><p>The answer to question ${n}, in a sentence.</p></div>`;
    const doc = parsePage(`<html><body>${fold(1)}${fold(2)}</body></html>`);
    expect(doc.querySelectorAll("[role=region]").length).toBe(2);
    expect(markupMay(doc, TABS)).toBe(true);
  });

  it("assumes anything of a document whose text it was not given", () => {
    const { document } = parseHTML("<html><body><p>x</p></body></html>");
    expect(markupMay(document as unknown as DomDocument, HIDDEN_ATTR)).toBe(true);
  });
});
