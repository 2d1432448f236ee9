import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { guidePage } from "./guide-page";

const { para, paras, head } = guidePage(
  "How to repot a fern",
  "repotting a fern",
  "the soil, the pot and the water",
);

describe("article repairs and cleanup", () => {
  it("reads markup the parser left between the head and the body, as a browser does", () => {
    const html = `<!doctype html><html>${head}<div class="wrap"><article><h1>How to repot a fern</h1>${paras(1, 2, 3, 4)}</article></div><body><p>Footer note.</p></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("Paragraph 1 of the guide");
    expect(markdown).toContain("Paragraph 4 of the guide");
  });

  it("puts the segments of a streamed React page where their placeholder is, though they arrive hidden", () => {
    const html = `<!doctype html><html>${head}<body><main><h1>How to repot a fern</h1><!--$?--><template id="B:0"></template><p>Loading the guide…</p><!--/$-->
      <h2>Aftercare</h2><p>Keep the repotted fern out of direct sun for a week while its roots settle into the new soil.</p></main>
      <div hidden id="S:0">${paras(1, 2, 3, 4)}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("Paragraph 1 of the guide");
    expect(markdown).toContain("Paragraph 4 of the guide");
    expect(markdown.indexOf("Paragraph 4 of the guide")).toBeLessThan(markdown.indexOf("## Aftercare"));
    expect(markdown).not.toContain("Loading the guide");
  });

  it("places streamed segments whose ids are hexadecimal (React numbers them in base 16)", () => {
    const html = `<!doctype html><html>${head}<body><main><h1>How to repot a fern</h1><!--$?--><template id="B:1f"></template><p>Loading the guide…</p><!--/$-->
      <h2>Aftercare</h2><p>Keep the repotted fern out of direct sun for a week while its roots settle into the new soil.</p></main>
      <div hidden id="S:1f">${paras(1, 2, 3, 4)}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown.indexOf("Paragraph 1 of the guide")).toBeGreaterThan(-1);
    expect(markdown.indexOf("Paragraph 4 of the guide")).toBeLessThan(markdown.indexOf("## Aftercare"));
    expect(markdown).not.toContain("Loading the guide");
  });

  it("keeps a page swallowed by an <aside> that was never closed, and drops a real one", () => {
    const html = `<!doctype html><html>${head}<body>
      <aside class="promo"><p>Sign up for our plant club and get ten percent off your first order of seeds.</p></aside>
      <aside class="banner"><a href="/sale">Spring sale</a><article><h1>How to repot a fern</h1>${paras(1, 2, 3, 4, 5)}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("Paragraph 5 of the guide");
    expect(markdown).not.toContain("plant club");
  });

  it("keeps a figure that holds a table and drops a picture with its caption", () => {
    const table = `<figure class="wp-block-table"><table><tr><th>Pot size</th><th>Soil litres</th></tr><tr><td>Small</td><td>Two</td></tr></table><figcaption>Table 1: soil per pot</figcaption></figure>`;
    const picture = `<figure><img src="/fern.jpg" alt=""><figcaption>A fern on a sunny windowsill</figcaption></figure>`;
    const html = `<!doctype html><html>${head}<body><article><h1>How to repot a fern</h1>${paras(1, 2)}${table}${picture}${paras(3, 4)}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("| Pot size | Soil litres |");
    expect(markdown).toContain("| Small | Two |");
    expect(markdown).not.toContain("sunny windowsill");
    expect(markdown).not.toContain("Table 1");
  });

  it("reads the whole page when Readability keeps a small part of it (sections it took for extras)", () => {
    const steps = (n: number) => [0, 1, 2, 3, 4, 5].map((i) => para(n * 10 + i)).join("");
    const section = (n: number) => `<div class="extra-step"><h2>Step ${n}</h2>${steps(n)}</div>`;
    const html = `<!doctype html><html>${head}<body><div class="page"><h1>How to repot a fern</h1>
      <div class="intro">${paras(1, 2, 3, 4, 5)}</div>${[1, 2, 3, 4, 5, 6, 7, 8, 9].map(section).join("")}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("Paragraph 1 of the guide");
    expect(markdown).toContain("## Step 9");
    expect(markdown).toContain("Paragraph 95 of the guide");
  });

  it("keeps Readability's article when what the page adds is readers' comments", () => {
    const comment = (n: number) =>
      `<li class="comment"><p>Reader ${n} says their fern loved the new pot and asks how often to water it through the winter months.</p></li>`;
    const comments = `<div id="comments"><ol>${Array.from({ length: 60 }, (_, i) => comment(i)).join("")}</ol></div>`;
    const html = `<!doctype html><html>${head}<body><div class="page"><article><h1>How to repot a fern</h1>${paras(1, 2, 3, 4, 5)}</article>${comments}</div></body></html>`;
    const { markdown } = extractMainContent(html, "https://ferns.example/repot");
    expect(markdown).toContain("Paragraph 5 of the guide");
    expect(markdown).not.toContain("Reader 7 says");
  });
});
