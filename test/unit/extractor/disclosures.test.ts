import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const page = (main: string) =>
  `<!doctype html><html><head><title>Window cleaning</title></head><body><header class="site-header"><a href="/">Home</a></header><main>${main}</main><footer><p>© 2026 Clear panes</p></footer></body></html>`;
const INTRO =
  "<h1>Window cleaning</h1><p>We clean the windows, frames and sills of houses and small offices with purified water on long poles, so no ladders lean on your walls and no streaks dry on the glass.</p>";
/** An FAQ item whose toggle is a button holding the question's heading, its answer hidden by a class until opened. */
const item = (q: string, a: string) =>
  `<div class="faq-item"><button type="button" aria-expanded="false"><h3>${q}</h3><svg><path d="M0 0"/></svg></button><div class="answer hidden"><p>${a}</p></div></div>`;

describe("disclosures (a button holding a heading opens the panel after it)", () => {
  it("keeps the question of each FAQ toggle and its class-hidden answer", () => {
    const html = page(
      `${INTRO}<h2>Questions</h2>${item("How often should windows be cleaned?", "Every eight weeks for most houses; offices on busy roads every four.")}${item("Do I need to be at home?", "No, we only need a way into the garden and a tap we may use.")}`,
    );
    const { markdown } = extractMainContent(html, "https://panes.example/");
    expect(markdown).toBe(
      "We clean the windows, frames and sills of houses and small offices with purified water on long poles, so no ladders lean on your walls and no streaks dry on the glass.\n\n### How often should windows be cleaned?\n\nEvery eight weeks for most houses; offices on busy roads every four.\n\n### Do I need to be at home?\n\nNo, we only need a way into the garden and a tap we may use.",
    );
  });

  it("still drops plain buttons and hidden blocks that no toggle opens", () => {
    const html = page(
      `${INTRO}<button type="button">Book a visit</button><div class="hidden"><p>Mobile menu copy that never shows on a desktop.</p></div>`,
    );
    const { markdown } = extractMainContent(html, "https://panes.example/");
    expect(markdown).toBe(
      "# Window cleaning\n\nWe clean the windows, frames and sills of houses and small offices with purified water on long poles, so no ladders lean on your walls and no streaks dry on the glass.",
    );
  });

  it("keeps the label of an accordion button inside a heading (the ARIA accordion pattern) and its panel", () => {
    const aria = (n: number, q: string, a: string) =>
      `<h3 class="faq-q"><button type="button" aria-expanded="false" aria-controls="faq-${n}">${q}</button></h3><div id="faq-${n}" class="answer" hidden><p>${a}</p></div>`;
    const html = page(
      `${INTRO}<h2>Questions</h2>${aria(1, "How often should windows be cleaned?", "Every eight weeks for most houses; offices on busy roads every four.")}${aria(2, "Do I need to be at home?", "No, we only need a way into the garden and a tap we may use.")}<h3><button type="button">Book a visit</button></h3>`,
    );
    const { markdown } = extractMainContent(html, "https://panes.example/");
    expect(markdown).toContain(
      "### How often should windows be cleaned?\n\nEvery eight weeks for most houses; offices on busy roads every four.\n\n### Do I need to be at home?\n\nNo, we only need a way into the garden and a tap we may use.",
    );
    expect(markdown).not.toContain("Book a visit");
  });
});
