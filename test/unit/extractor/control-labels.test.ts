import { describe, expect, it } from "vitest";
import { dropControlLabels } from "../../../durable-objects/extractor/control-labels";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const PARAGRAPH =
  "The city council voted on Tuesday to extend the night bus routes to the harbour district, after two years of petitions from the people who work there.";

describe("a control's label left on its own line", () => {
  it("goes from a story: an ad slot's tag, a caption toggle, a back-to-top link", () => {
    const html = `<!doctype html><html><head><title>Night buses</title></head><body><main><article><h1>Night buses reach the harbour</h1><p>${PARAGRAPH}</p><div class="slot"><p>Advertisement</p></div><p>${PARAGRAPH.replace("Tuesday", "Monday")}</p><figure><div class="wrap"><b class="toggle-caption">toggle caption</b></div></figure><p>${PARAGRAPH.replace("Tuesday", "Friday")}</p><p><a href="#top">Back to top</a></p></article></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://news.example/night-buses");
    expect(markdown).toContain("voted on Monday");
    expect(markdown).not.toContain("Advertisement");
    expect(markdown).not.toContain("toggle caption");
    expect(markdown).not.toContain("Back to top");
  });

  it("goes when it is a link's whole label: Read more, Continue reading, Learn more", () => {
    expect(
      dropControlLabels(
        "A new bus line opens.\n\n[Read more](/news/1)\n\nThe pool reopens.\n\n[Continue reading →](/news/2)\n\n**[Learn more](/pool)**\n\nEnd.",
      ),
    ).toBe("A new bus line opens.\n\nThe pool reopens.\n\nEnd.");
    const kept = "Read more about the routes in [the plan](/plan).\n\n[Learn more about the pool](/pool)";
    expect(dropControlLabels(kept)).toBe(kept);
  });

  it("reads labels through Markdown marks and keeps them inside sentences, tables and code", () => {
    expect(
      dropControlLabels(
        "Intro.\n\n**Close**\n\n- [Back](/list)\n\n#### Icon\n\nAd - Page continues below\n\nAdd to wishlist\n\n[Quick View](/q/1)\n\nCompare\n\nLoad more\n\nExpand all\n\nShare\n\n3. Icon\n\nSlide 2 of 5\n\n[More in this category](/c/travel)\n\nApply now\n\nEnd.",
      ),
    ).toBe("Intro.\n\nEnd.");
    const kept =
      "Share the load: play it again.\n\nClose the lid before you go back.\n\nCompare plans and add to cart.\n\n| Close |\n\n```\nclose\n```\n\n## Back pain";
    expect(dropControlLabels(kept)).toBe(kept);
  });
});
