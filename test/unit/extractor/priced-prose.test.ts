import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const head = `<head><title>The best keyboards</title><meta property="og:type" content="article"></head>`;
const para = (n: number) =>
  `<p>Paragraph ${n} of the review weighs the switches, the case and the software of each keyboard we typed on for a month.</p>`;
const pick = (name: string, price: number) =>
  `<li><a href="/k/${name}">${name} Kit</a> ($${price}): a compact layout with an aluminium case, hot-swap sockets, programmable layers and a choice of plates, which suits anyone who wants to tune the feel of every key.</li>`;
const card = (name: string, price: number) =>
  `<li><a href="/p/${name}">${name} Keyboard</a><span>$${price}</span></li>`;

describe("a story's list of picks told in sentences with their prices", () => {
  it("keeps a list of priced sentences in an article, dropping a grid of priced cards", () => {
    const picks = `<h2>Notable mentions</h2><ul>${pick("Finch", 160)}${pick("Robin", 199)}${pick("Wren", 120)}${pick("Heron", 240)}</ul>`;
    const grid = `<ul class="grid">${card("Alpha", 99)}${card("Beta", 129)}${card("Gamma", 149)}</ul>`;
    const html = `<!doctype html><html>${head}<body><article><h1>The best keyboards</h1>${[1, 2, 3, 4, 5].map(para).join("")}${picks}${para(6)}${grid}</article></body></html>`;
    const { markdown } = extractMainContent(html, "https://keys.example/best");
    expect(markdown).toContain("($160): a compact layout");
    expect(markdown).toContain("($240): a compact layout");
    expect(markdown).not.toContain("Gamma Keyboard");
  });
});
