import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const quote = (name: string) =>
  `“${name} moved our whole support desk onto one queue in a week, and the forecasts now plan our staffing for the holidays without a spreadsheet in sight,” says the head of operations.`;
const slide = (name: string, state: string) =>
  `<div class="slick-slide${state === "false" ? " slick-active" : ""}" aria-hidden="${state}"><blockquote><p>${quote(name)}</p><cite>${name} Ltd</cite></blockquote></div>`;

describe("carousel slides out of view", () => {
  it("keeps the testimonials a slider hides as aria-hidden, not its loop copies or other hidden blocks", () => {
    const intro = [1, 2, 3]
      .map(
        (n) =>
          `<p>Section ${n}: the workforce tools forecast ticket volume by the hour, build schedules from it, and track how agents spend their day across channels and time zones.</p>`,
      )
      .join("");
    const slider = `<section><h2>Customer stories</h2><div class="slick-track">${slide("Acme", "false")}${slide("Brightline", "true")}${slide("Corvid", "true")}<div class="slick-slide slick-cloned" aria-hidden="true"><p>${quote("Loopcopy")}</p></div></div></section>`;
    const hidden = `<div class="notice" aria-hidden="true"><p>${quote("Hiddenbox")}</p></div>`;
    const html = `<!doctype html><html><head><title>Workforce management</title></head><body><header class="site-header"><a href="/">Home</a></header><main><h1>Workforce management</h1>${intro}${slider}${hidden}</main><footer><p>© 2026 Example</p></footer></body></html>`;
    const { markdown } = extractMainContent(html, "https://service.example/wfm");
    expect(markdown).toContain("Acme moved our whole support desk");
    expect(markdown).toContain("Brightline moved our whole support desk");
    expect(markdown).toContain("Corvid moved our whole support desk");
    expect(markdown).not.toContain("Loopcopy");
    expect(markdown).not.toContain("Hiddenbox");
  });
});
