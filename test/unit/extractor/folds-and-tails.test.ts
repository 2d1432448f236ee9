import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const step = (n: number) =>
  `<p>Step ${n} of the guide to bleeding a radiator: the key, the towel, the valve and the pressure gauge.</p>`;
const steps = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => step(from + i)).join("");
const stepLine = (n: number) =>
  `Step ${n} of the guide to bleeding a radiator: the key, the towel, the valve and the pressure gauge.`;
const faq = (hidden: string) => `<h2>Questions</h2>
  <h3 id="q1">How often?</h3>
  <div id="a1" role="region" aria-labelledby="q1" ${hidden}><p>Once a year, before the heating goes on in autumn, is enough for most homes.</p></div>
  <h3 id="q2">Is it safe?</h3>
  <div id="a2" role="region" aria-labelledby="q2" ${hidden}><p>Yes, once the heating has been off long enough for the water to cool down.</p></div>`;
const answers = [
  "Once a year, before the heating goes on in autumn, is enough for most homes.",
  "Yes, once the heating has been off long enough for the water to cool down.",
];

describe("folded panels read as content", () => {
  it("opens an article's accordion answers folded by an inline style before Readability reads them", () => {
    const html = `<!doctype html><html><head><title>Bleeding a radiator</title><meta property="og:type" content="article"></head>
      <body><article><h1>Bleeding a radiator</h1>${steps(1, 4)}${faq('style="display:none;"')}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://heat.example/bleed");
    expect(markdown).toBe(
      [
        stepLine(1),
        stepLine(2),
        stepLine(3),
        stepLine(4),
        "## Questions",
        "### How often?",
        answers[0],
        "### Is it safe?",
        answers[1],
      ].join("\n\n"),
    );
  });

  it("keeps the answers a page folds with an inline style in its main region", () => {
    const html = `<!doctype html><html><head><title>Radiator help</title></head>
      <body><header><a href="/">Home</a></header><main><h1>Radiator help</h1>${steps(1, 2)}${faq('style="display: none"')}</main></body></html>`;
    const { markdown } = extractMainContent(html, "https://heat.example/help");
    expect(markdown).toBe(
      [
        "# Radiator help",
        stepLine(1),
        stepLine(2),
        "## Questions",
        "### How often?",
        answers[0],
        "### Is it safe?",
        answers[1],
      ].join("\n\n"),
    );
  });
});
