import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const page = (main: string) =>
  `<!doctype html><html><head><title>Plans</title></head><body><header class="site-header"><a href="/">Home</a></header><main><h1>Plans for every team</h1><p>Pick the plan that fits how your team works today and change it whenever you need to, with no fees for switching and nothing to install.</p>${main}</main><footer><p>© 2026 Teamwork Inc.</p></footer></body></html>`;
const count = (text: string, part: string) => text.split(part).length - 1;

describe("blocks printed twice side by side", () => {
  it("keeps one copy of a block the page prints once per screen size", () => {
    const cards = (cls: string) =>
      `<div class="${cls}"><h3>Shared boards</h3><div>Plan the quarter together on one board that every team member can edit at once.</div><h3>Reports</h3><div>See where each project stands with weekly reports sent to your inbox.</div></div>`;
    const { markdown } = extractMainContent(
      page(`<section><h2>Why teams switch</h2>${cards("cards")}${cards("cards-mobile")}</section>`),
      "https://teamwork.example/",
    );
    expect(count(markdown, "Plan the quarter together")).toBe(1);
    expect(count(markdown, "weekly reports sent to your inbox")).toBe(1);
  });

  it("keeps repeated list items, paragraphs and short blocks, which are the page's own data", () => {
    const week = (n: number) =>
      `<h3>Week ${n}</h3><ul><li>Warm up for ten minutes of easy jogging before every single session</li><li>Run ${n + 2} miles</li></ul>`;
    const note = `<p>Ask your coach before changing the plan if you feel any pain in your knees or feet.</p>`;
    const { markdown } = extractMainContent(
      page(`<section>${week(1)}<div>Save 20%</div>${note}${week(2)}<div>Save 20%</div>${note}</section>`),
      "https://teamwork.example/",
    );
    expect(count(markdown, "Warm up for ten minutes")).toBe(2);
    expect(count(markdown, "Ask your coach before changing")).toBe(2);
    expect(count(markdown, "Save 20%")).toBe(2);
  });
});
