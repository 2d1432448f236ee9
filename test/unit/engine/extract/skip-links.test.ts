import { describe, expect, it } from "vitest";
import { renderBody } from "../../../../durable-objects/engine/extract/content";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const SKIP_BLOCK = `<div style="display:none;"><h1>Shopwide</h1><ul><li><a href="#search-key" accesskey="h">I'm shopping for...</a></li></ul></div>`;
const FOOTER = `<footer><h3>Help</h3><a href="/help">Help Center</a>, <a href="/returns">Return policy</a>, <a href="/privacy">Privacy Policy</a>, <a href="/terms">Terms of Use</a></footer>`;
const PARAGRAPH =
  "The hand-wired keyboard ships with a gasket mount, a hot-swap board and a case milled from a single block of aluminium, and its battery lasts a month.";

describe("a hidden block of links that jump within the page", () => {
  it("is no content: a page drawn by script that holds only it and its footer shows nothing", () => {
    const html = `<!doctype html><html><head><title></title></head><body>${SKIP_BLOCK}<div id="app" style="height:72px"></div>${FOOTER}</body></html>`;
    expect(extractMainContent(html, "https://shop.example/item/1.html").markdown).toBe("");
    const { text } = renderBody(
      "html",
      new TextEncoder().encode(html),
      "text/html",
      "https://shop.example/item/1.html",
    );
    expect(text).toContain("The page's HTML shows no readable content: it is probably drawn by script.");
    expect(text).not.toContain("shopping for");
  });

  it("goes from a page that has content, which stays", () => {
    const html = `<!doctype html><html><head><title>Keyboard</title></head><body>${SKIP_BLOCK}<main><h1>Keyboard</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH.replace("month", "fortnight")}</p></main>${FOOTER}</body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/item/2.html");
    expect(markdown).toContain("battery lasts a fortnight");
    expect(markdown).not.toContain("shopping for");
    expect(markdown).not.toContain("Shopwide");
  });

  it("stays when a link leaves the page or the block holds prose: that is hidden content, not a skip link", () => {
    const away = `<!doctype html><html><head><title></title></head><body><div style="display:none;"><h1>Shopwide</h1><ul><li><a href="/deals">Today's deals on keyboards</a></li></ul></div>${FOOTER}</body></html>`;
    expect(extractMainContent(away, "https://shop.example/item/3.html").markdown).toContain(
      "Today's deals on keyboards",
    );
    const prose = `<!doctype html><html><head><title></title></head><body><div style="display:none;"><p>${PARAGRAPH}</p><a href="#top">Top</a></div>${FOOTER}</body></html>`;
    expect(extractMainContent(prose, "https://shop.example/item/4.html").markdown).toContain(
      "battery lasts a month",
    );
  });
});
