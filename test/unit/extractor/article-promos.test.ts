import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { guidePage } from "./guide-page";

const { line, paras, head } = guidePage(
  "Sharpening a chisel",
  "sharpening a chisel",
  "the stone, the angle and the oil",
);

describe("blocks about the site inside an article", () => {
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
