import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const para = (n: number) =>
  `<p>Point ${n}: the software sends invoices, matches bank payments and files the quarterly return, so a freelancer spends an hour a month on the books instead of a whole weekend.</p>`;
const pane = (title: string) =>
  `<div class="kt-accordion-pane"><h3 class="kt-accordion-header-wrap"><button class="kt-blocks-accordion-header">${title}</button></h3><div class="kt-accordion-panel kt-accordion-panel-hidden"><div class="kt-accordion-panel-inner"><p>${title} costs fifteen dollars a month for one user, with payroll as an add-on and a free trial of thirty days before the first payment is taken.</p></div></div></div>`;

describe("accordion labels Readability misreads", () => {
  it("keeps an accordion whose class styles its panes' headers, and its folded panels", () => {
    const accordion = `<div class="kt-accordion-wrap kt-accordion-has-3-panes kt-pane-header-alignment-left">${["Monthly pricing", "Standout features", "Support hours"].map(pane).join("")}</div>`;
    const html = `<!doctype html><html><head><title>Software</title><meta property="og:type" content="article"></head><body><main><div class="entry-content">${[1, 2, 3, 4].map(para).join("")}${accordion}${para(5)}</div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://reviews.example/accounting");
    expect(markdown).toContain("Point 5: the software");
    for (const title of ["Monthly pricing", "Support hours"])
      expect(markdown).toContain(`${title} costs fifteen dollars`);
  });
});
