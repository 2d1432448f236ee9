import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const ld = `<script type="application/ld+json">{"@type":"Product","name":"Small Steps","offers":{"@type":"Offer","price":"12.99"}}</script>`;
const para = (n: number) =>
  `<p>Excerpt paragraph ${n}: it is easy to overestimate one defining moment and to underestimate the value of making small improvements every day, for habits compound over months and years the way money does in a savings account left alone.</p>`;

describe("the folded part of a read-more expander", () => {
  it("keeps the prose a description hides behind its expander, not a short hidden label", () => {
    const details = Array.from({ length: 20 }, (_, i) => i + 1)
      .map(
        (n) =>
          `<p>Detail ${n}: the paperback runs to three hundred and twenty pages, printed on cream paper in a clear serif type, with notes and an index at the back.</p>`,
      )
      .join("");
    const description = `<div class="book-description"><div class="a-expander-content a-expander-partial-collapse-content"><p>The bestselling guide to building good habits and breaking bad ones, in a short read for anyone who wants to change a little every day.</p></div>
      <div class="a-expander-content a-expander-extend-content" style="display:none"><h3>Excerpt</h3>${para(1)}${para(2)}${para(3)}</div>
      <div class="a-expander-content a-expander-prompt" style="display:none"><p>Read less</p></div>${details}</div>`;
    const html = `<!doctype html><html><head><title>Small Steps</title>${ld}</head><body><header class="site-header"><a href="/">Books</a></header><main><h1>Small Steps</h1><p class="price">$12.99</p>${description}</main><footer><p>© 2026 Books</p></footer></body></html>`;
    const { markdown } = extractMainContent(html, "https://books.example/small-steps");
    expect(markdown).toContain("Detail 20: the paperback");
    expect(markdown).toContain("Excerpt paragraph 3: it is easy");
    expect(markdown).not.toContain("Read less");
  });
});

describe("the panel of a lone disclosure", () => {
  const page = (panel: string) => {
    const intro = Array.from({ length: 16 }, (_, i) => i + 1)
      .map(
        (n) =>
          `<p>Planning note ${n}: the calculator estimates how current savings and future contributions may meet the income you expect to need once you stop working, year by year.</p>`,
      )
      .join("");
    return `<!doctype html><html><head><title>Retirement calculator</title></head><body><nav><a href="/">Home</a><a href="/plans">Plans</a></nav><main><h1>Retirement calculator</h1>${intro}
      <div><a href="#" class="show-hide-open" aria-expanded="false">How the calculator works</a></div>
      ${panel}</main><footer><p>© 2026 Bank</p></footer></body></html>`;
  };
  it("keeps the prose a collapsed toggle folds away", () => {
    const { markdown } = extractMainContent(
      page(`<div class="hide" aria-hidden="true"><h4>Methodology</h4>${para(1)}${para(2)}</div>`),
      "https://bank.example/calculator",
    );
    expect(markdown).toContain("Planning note 16");
    expect(markdown).toContain("Excerpt paragraph 2: it is easy");
  });
  it("leaves out a menu a collapsed toggle opens", () => {
    const links = Array.from({ length: 8 }, (_, i) => `<li><a href="/p${i}">Plan number ${i}</a></li>`).join(
      "",
    );
    const { markdown } = extractMainContent(
      page(`<div class="hide" aria-hidden="true"><ul>${links}</ul></div>`),
      "https://bank.example/calculator",
    );
    expect(markdown).toContain("Planning note 16");
    expect(markdown).not.toContain("Plan number 3");
  });
});
