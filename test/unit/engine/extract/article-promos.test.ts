import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { guidePage } from "./guide-page";

const { line, paras, head } = guidePage(
  "Sharpening a chisel",
  "sharpening a chisel",
  "the stone, the angle and the oil",
);

describe("blocks about the site inside an article", () => {
  it("drops an author box marked as the schema.org author with a biography", () => {
    const box = `<div class="wrap-box" itemprop="author" itemscope itemtype="https://schema.org/Person">
      <p itemprop="name">Ada Plane</p>
      <div itemprop="description"><p>Ada Plane has restored hand tools for twenty years and teaches joinery at a community workshop on weekends, where she also mends old planes and saws.</p></div></div>`;
    const html = `<!doctype html><html>${head}<body><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3, 4, 5)}${box}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://tools.example/chisel");
    expect(markdown).toBe([line(1), line(2), line(3), line(4), line(5)].join("\n\n"));
  });

  it("drops the stated author's biography closing the story, not a paragraph naming them early on", () => {
    const authored = head.replace("</head>", '<meta name="author" content="Ada Plane"></head>');
    const bio =
      "<p>Ada Plane is a joiner who has restored hand tools for twenty years and teaches at a community workshop.</p>";
    const early =
      "<p>Ada Plane is the joiner who showed us this method, and she keeps her stones in a box of oil.</p>";
    const html = `<!doctype html><html>${authored}<body><article><h1>Sharpening a chisel</h1>${early}${paras(1, 2, 3, 4, 5, 6)}${bio}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://tools.example/chisel");
    expect(markdown).toContain("showed us this method");
    expect(markdown).not.toContain("twenty years");
    expect(markdown).toContain(line(6));
  });

  it("drops the site's standing disclaimer from an article but keeps a terms page's disclosure that is much of it", () => {
    const note = `<p class="post-disclaimer">Links on this site may earn us a small commission; the tools we test are bought with our own money.</p>`;
    const article = `<!doctype html><html>${head}<body><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3, 4, 5)}${note}</article></body></html>`;
    expect(extractMainContent(article, "https://tools.example/chisel").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5)].join("\n\n"),
    );
    const service = `<!doctype html><html><head><title>Tool hire terms</title></head><body><main><h1>Tool hire terms</h1>${paras(1)}${note}</main></body></html>`;
    expect(extractMainContent(service, "https://tools.example/terms").markdown).toContain(
      "earn us a small commission",
    );
  });

  it("drops a sign-up form set inside an article: its field labels and notes are no part of the story", () => {
    const field = (label: string, note: string) =>
      `<div class="gfield"><label class="gfield_label">${label}</label><div class="ginput_container"><input name="x"></div><div class="gfield_description">${note}</div></div>`;
    const form = `<div class="ebook-offer"><form id="gform_14"><div class="gform_body">${field("First Name *", "As you would like us to greet you in our emails, with your title.")}${field("Email *", "We will send the ebook to this address, and nothing else, ever.")}${field("Company *", "The workshop, school or business you work for, if any, in full.")}</div></form></div>`;
    const html = `<!doctype html><html>${head}<body><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3)}${form}${paras(4, 5)}</article></body></html>`;
    expect(extractMainContent(html, "https://tools.example/chisel").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5)].join("\n\n"),
    );
  });

  it("keeps an article that a page builder wraps in one form", () => {
    const html = `<!doctype html><html>${head}<body><form id="page-form"><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3, 4, 5)}</article></form></body></html>`;
    expect(extractMainContent(html, "https://tools.example/chisel").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5)].join("\n\n"),
    );
  });

  it("drops a carousel's slides from an article", () => {
    const slide = (n: number) =>
      `<div class="swiper-slide"><p>Waterstone number ${n}, a fine grit for the last polish</p><p>Medium grit, ${n}000 mesh, soaked before use</p></div>`;
    const carousel = `<div class="product-swiper"><div class="swiper-wrapper">${slide(1)}${slide(2)}${slide(3)}</div></div>`;
    const html = `<!doctype html><html>${head}<body><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3)}${carousel}${paras(4, 5, 6)}</article></body></html>`;
    expect(extractMainContent(html, "https://tools.example/chisel").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5), line(6)].join("\n\n"),
    );
  });
});
