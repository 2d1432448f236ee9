import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const feature = (n: number) =>
  `<section><header><h2>Feature ${n}: offline maps</h2><p>Download the map of a whole region before you leave and find your way without a signal.</p></header><p>Maps update in the background whenever the phone is charging on wifi, so a trip starts with fresh trails.</p></section>`;

describe("landmarks", () => {
  it("keeps a <header> that heads a section (its title and lead) and drops the page's own banner", () => {
    const html = `<!doctype html><html><head><title>Trail app</title></head><body><header><a href="/">Trail app</a><a href="/login">Log in to your account</a></header><main>${[1, 2, 3].map(feature).join("")}</main><footer>© Trail app</footer></body></html>`;
    const { markdown } = extractMainContent(html, "https://trail.example/features");
    expect(markdown).toContain(
      "## Feature 2: offline maps\n\nDownload the map of a whole region before you leave and find your way without a signal.\n\nMaps update in the background",
    );
    expect(markdown).not.toContain("Log in to your account");
  });
});
