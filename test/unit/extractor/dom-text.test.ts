import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import {
  foldedLength,
  lazyTextLength,
  shortText,
  textLength,
} from "../../../durable-objects/extractor/dom-text";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";

const el = (html: string) =>
  parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document
    .body as unknown as DomElement;

describe("text measures", () => {
  it("folds whitespace as a reader sees it, Unicode spaces included", () => {
    for (const text of ["", "   ", " a ", "a\t\n b", "\u00a0x\u2003\u3000y\ufeff", "one  two\r\nthree "])
      expect(foldedLength(text)).toBe(text.replace(/\s+/g, " ").trim().length);
  });

  it("measures an element's text across its children", () => {
    expect(textLength(el("<p> By <a>Ana</a>\n\n <b>Ruiz</b> </p>"))).toBe("By Ana Ruiz".length);
  });

  it("returns a short element's folded text and null once the text is longer than asked", () => {
    const line = el("<div>\n  <span>Published</span>\n  <time>1 May</time>\n</div>");
    expect(shortText(line, 20)).toBe("Published 1 May");
    expect(shortText(line, 12)).toBeNull();
    expect(shortText(el("<p>     </p>"), 0)).toBe("");
  });

  it("measures a lazy length once, when first asked, and keeps it", () => {
    const body = el("<p>one</p><p>two</p>");
    const total = lazyTextLength(body);
    body.querySelector("p")?.remove();
    expect(total()).toBe("two".length);
    body.querySelector("p")?.remove();
    expect(total()).toBe("two".length);
  });
});

describe("markdown", () => {
  it("numbers ordered list items by their place among the items, from the list's start", () => {
    const body = el('<ol start="3"><li>three</li><!-- note --><li>four</li> <li>five</li></ol>');
    expect(toMarkdown(body)).toBe("3. three\n4. four\n5. five");
  });
});
