import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const para = (topic: string, n: number) =>
  `<p>${topic} ${n}: our electricians arrive with a stocked van, explain the work before they start, and clean up afterwards, so most repairs are done in a single visit at the price we quoted.</p>`;

describe("page-builder text widgets", () => {
  it("keeps a prose block that a page builder labels as a text widget", () => {
    const intro = [1, 2, 3, 4].map((n) => para("Pricing note", n)).join("");
    const widget = `<div class="so-panel widget widget_sow-editor panel-last-child"><div class="so-widget-sow-editor so-widget-sow-editor-base"><div class="siteorigin-widget-tinymce textwidget"><h3>How we are qualified</h3>${[1, 2].map((n) => para("Qualification", n)).join("")}</div></div></div>`;
    const html = `<!doctype html><html><head><title>Prices</title><meta property="og:type" content="article"></head><body><main><div class="panel-grid-cell">${intro}${widget}</div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://electric.example/prices");
    expect(markdown).toContain("Pricing note 4: our electricians");
    expect(markdown).toContain("Qualification 2: our electricians");
  });
});
