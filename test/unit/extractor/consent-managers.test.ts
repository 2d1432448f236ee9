import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/** A consent manager's box with a long notice and choices by purpose (more text than a short page holds). */
const CONSENT_NOTICE = `<div id="site-consent-sdk"><div role="dialog" aria-modal="true" aria-label="Privacy">
<h2>Your privacy choices</h2>
<p>When you visit this website it may store or retrieve information on your browser, mostly in the form of small files. This information might be about you, your preferences or your device and is mostly used to make the site work as you expect it to.</p>
${["Strictly necessary", "Performance", "Functional", "Targeting", "Social media"]
  .map(
    (p) =>
      `<section class="purpose-group"><h3>${p} files</h3><p>These files are set by us or by our partners to measure and improve the site, to remember your choices and to show you relevant offers on other sites you visit.</p></section>`,
  )
  .join("")}
</div></div>`;

/** A short listing page of five linked titles, with the consent manager printed after it. */
function listingPage(consent: string): string {
  const items = [
    "Markets fall as oil prices climb again",
    "Central bank holds rates for a third month",
    "Shipping costs rise on the main trade routes",
    "Factory orders beat forecasts in the spring",
    "Retail sales slow as households cut spending",
  ];
  return `<!doctype html><html><head><title>Economy</title></head><body>
<header><a href="/">Home</a></header>
<main><h1>Economy</h1><ul class="feed">${items
    .map(
      (t, i) =>
        `<li class="feed-item"><h3><a href="/economy/${i}">${t}</a></h3><p>A short teaser of the story.</p></li>`,
    )
    .join("")}</ul></main>
${consent}
</body></html>`;
}

describe("consent-managers (page stage)", () => {
  it("removes a consent dialog that holds more text than the page's own content", () => {
    const html = listingPage(CONSENT_NOTICE);
    const { markdown } = extractMainContent(html, "https://news.example/economy");
    expect(markdown).toContain("Central bank holds rates for a third month");
    expect(markdown).not.toContain("Your privacy choices");
    expect(markdown).not.toContain("These files are set by us");
    // Without the pass the dialog's notice is what the page is read as.
    const off = withPassesOff(["consent-managers"], () =>
      extractMainContent(html, "https://news.example/economy"),
    );
    expect(off.markdown).toContain("These files are set by us");
  });

  it("removes a consent box labelled as a popup though it has no dialog role", () => {
    const popup = CONSENT_NOTICE.replace(
      '<div role="dialog" aria-modal="true" aria-label="Privacy">',
      '<div class="modal_cookie-consent">',
    );
    const { markdown } = extractMainContent(listingPage(popup), "https://news.example/economy");
    expect(markdown).toContain("Retail sales slow as households cut spending");
    expect(markdown).not.toContain("Your privacy choices");
  });

  it("keeps a block that names cookies but is neither a dialog nor a popup (a recipe's own text)", () => {
    const recipe = `<!doctype html><html><head><title>Oat cookies</title></head><body><main><h1>Oat cookies</h1>
<div class="cookie-recipe"><p>Mix the oats, flour and butter in a large bowl until the dough holds together, then roll it into small balls and press each one flat on a lined tray.</p>
<p>Bake the cookies for twelve minutes until golden at the edges, and leave them to cool on the tray before lifting them off.</p></div></main></body></html>`;
    const { markdown } = extractMainContent(recipe, "https://food.example/oat-cookies");
    expect(markdown).toContain("Bake the cookies for twelve minutes");
  });
});
