import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";

const markdownOf = (html: string) => {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document as unknown as DomDocument;
  return doc.body ? toMarkdown(doc.body) : "";
};

describe("link titles", () => {
  it("prints a link's label and target, not its tooltip", () => {
    const markdown = markdownOf(
      `<ul><li><a href="/wiki/Clean_(programming_language)" title="Clean (programming language)">Clean</a></li><li><a href="/wiki/Curl" title="Curl (programming language)">Curl</a> – a language for web content</li></ul>`,
    );
    expect(markdown).toContain("- [Clean](/wiki/Clean_\\(programming_language\\))");
    expect(markdown).toContain("- [Curl](/wiki/Curl) – a language for web content");
    expect(markdown).not.toContain("programming language)");
  });

  it("keeps a target with spaces in angle brackets", () => {
    expect(
      markdownOf(`<p>See <a href="/files/annual report.pdf" title="PDF, 2 MB">the report</a>.</p>`),
    ).toBe("See [the report](</files/annual report.pdf>).");
  });
});
