import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const FILMS = [
  ["Harbour Lights", "2026", "1h 54m", "R"],
  ["The Long Thaw", "2025", "2h 11m", "PG"],
  ["Paper Moons", "2026", "1h 43m", "R"],
  ["North of Nowhere", "2024", "2h 5m", "PG"],
];
const page = (items: string) =>
  `<!doctype html><html><head><title>Popular films</title></head><body><main><h1>Most popular films</h1><p>As ranked by this week's searches, updated every Monday morning for readers.</p><ol class="chart">${items}</ol></main></body></html>`;

describe("inline items printed side by side", () => {
  it("sets apart adjacent spans whose texts would run together", () => {
    const items = FILMS.map(
      ([t, y, d, r], i) =>
        `<li class="film"><h3><a href="/f/${i}">${t}</a></h3><div class="meta"><span class="item">${y}</span><span class="item">${d}</span><span class="item">${r}</span></div><p>A film that people searched for this week, with its cast and crew.</p></li>`,
    ).join("");
    const { markdown } = extractMainContent(page(items), "https://films.example/chart");
    for (const [, y, d, r] of FILMS) expect(markdown).toContain(`${y} ${d} ${r}`);
    // With the pass off, each film's year, running time and rating read as one word.
    const off = withPassesOff(["glued-items"], () =>
      extractMainContent(page(items), "https://films.example/chart"),
    ).markdown;
    for (const [, y, d, r] of FILMS) expect(off).toContain(`   ${y}${d}${r}\n`);
    expect(off.replace(/^( {3}\d{4})(\dh \d+m)(PG|R)$/gm, "$1 $2 $3")).toBe(markdown);
  });

  it("leaves a word split by formatting or a price split at its sign as it is", () => {
    const items = FILMS.map(
      ([t], i) =>
        `<li class="film"><h3><a href="/f/${i}">${t}</a></h3><p><b>Un</b><b>missable</b> at <span class="cur">$</span><span class="amount">9</span> a ticket, this week only.</p></li>`,
    ).join("");
    const { markdown } = extractMainContent(page(items), "https://films.example/chart");
    expect(markdown).toContain("at $9 a ticket");
    expect(markdown).not.toContain("$ 9");
  });

  it("sets apart adjacent inline items of two tags (a <small> and a <span>)", () => {
    const items = FILMS.map(
      ([t, y, d], i) =>
        `<li class="film"><h3><a href="/f/${i}">${t}</a></h3><div class="meta"><small class="year">${y}</small><span class="item">${d}</span></div><p>A film that people searched for this week, with its cast and crew.</p></li>`,
    ).join("");
    const { markdown } = extractMainContent(page(items), "https://films.example/chart");
    for (const [, y, d] of FILMS) expect(markdown).toContain(`${y} ${d}`);
  });
});
