import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Choosing running shoes"}</script>`;
const body = Array.from({ length: 8 }, (_, i) => i + 1)
  .map(
    (n) =>
      `<p>Buying note ${n}: a running shoe should fit the foot you have on the day you run most, so try pairs in the evening, with the socks you race in, and walk a few steps on a hard floor.</p>`,
  )
  .join("");
const pair = (q: string, a: string) =>
  `<h3>${q}</h3><div class="panel" hidden aria-hidden="true"><p>${a}</p></div>`;
const page = (faq: string) =>
  `<!doctype html><html><head><title>Choosing running shoes</title>${ld}</head><body><header class="site-header"><a href="/">Home</a></header><main><article><h1>Choosing running shoes</h1>${body}${faq}</article></main><footer><p>© 2026 Shoes</p></footer></body></html>`;

describe("accordions of headings and hidden answers", () => {
  it("opens the hidden answer after each heading when the page has two or more", () => {
    const html = page(
      pair(
        "Fit",
        "Leave a thumb's width between your longest toe and the end of the shoe, since feet swell over a long run.",
      ) +
        pair(
          "Cushioning",
          "More foam softens each landing but weighs more; a daily trainer sits in the middle of the range.",
        ),
    );
    const { markdown } = extractMainContent(html, "https://shoes.example/guide");
    expect(markdown).toContain("Buying note 8");
    expect(markdown).toContain("Leave a thumb's width");
    expect(markdown).toContain("More foam softens each landing");
  });

  it("leaves a lone hidden block after a heading hidden", () => {
    const html = page(
      pair(
        "Fit",
        "Leave a thumb's width between your longest toe and the end of the shoe, since feet swell over a long run.",
      ),
    );
    const { markdown } = extractMainContent(html, "https://shoes.example/guide");
    expect(markdown).toContain("Buying note 8");
    expect(markdown).not.toContain("Leave a thumb's width");
  });
});
