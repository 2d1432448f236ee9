import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const lead = (n: number) =>
  `<p>Lead ${n}: the fetch interface makes a request and returns a promise of the response, which the caller reads as text or as JSON once the headers arrive.</p>`;
const body = (n: number) =>
  `<p>Section ${n} explains one more option of the request, with an example of the call, the headers it sends, and what the server is expected to answer, step by step.</p>`;

describe("a document's lead in a header block beside its body", () => {
  it("puts the title's lead paragraphs, printed in a block beside the body Readability took, before the body", () => {
    const sections = Array.from({ length: 14 }, (_, i) => body(i + 1)).join("");
    const html = `<!doctype html><html><head><title>Docs: network requests</title></head><body><div class="topbar"><a href="/">Docs</a></div>
      <main><div class="intro-header"><h1>Using fetch</h1>${lead(1)}${lead(2)}</div><div class="body">${sections}</div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://docs.example/fetch");
    expect(markdown).toContain("Section 14 explains");
    expect(markdown).toContain("Lead 2: the fetch interface");
    expect(markdown.indexOf("Lead 1:")).toBeLessThan(markdown.indexOf("Section 1 explains"));
  });
});
