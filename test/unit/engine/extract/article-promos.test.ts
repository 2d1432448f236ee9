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

  it("drops the site's standing disclaimer from an article but keeps a service page's disclosure section", () => {
    const note = `<p class="post-disclaimer">Links on this site may earn us a small commission; the tools we test are bought with our own money.</p>`;
    const article = `<!doctype html><html>${head}<body><article><h1>Sharpening a chisel</h1>${paras(1, 2, 3, 4, 5)}${note}</article></body></html>`;
    expect(extractMainContent(article, "https://tools.example/chisel").markdown).toBe(
      [line(1), line(2), line(3), line(4), line(5)].join("\n\n"),
    );
    const service = `<!doctype html><html><head><title>Tool hire terms</title></head><body><main><h1>Tool hire terms</h1>${paras(1, 2, 3)}${note}</main></body></html>`;
    expect(extractMainContent(service, "https://tools.example/terms").markdown).toContain(
      "earn us a small commission",
    );
  });
});
