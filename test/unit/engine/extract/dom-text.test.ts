import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { foldedLength, shortText, textLength } from "../../../../durable-objects/engine/extract/dom-text";
import type { DomElement } from "../../../../durable-objects/engine/extract/dom-types";

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
});
