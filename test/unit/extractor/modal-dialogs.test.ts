import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Fan curve after the BIOS update"}</script>`;
const post = (who: string, text: string) =>
  `<div class="thread-entry"><p class="who">${who}</p><p>${text}</p></div>`;
const THREAD = [
  post(
    "marlow",
    "Since the BIOS update my case fans spin at full speed on the desktop and the curve I saved before is gone from the fan page of the setup screen.",
  ),
  post(
    "quinta",
    "The update resets the saved profiles: load the defaults once, set the curve again and save it under a new profile name, then it sticks after a restart.",
  ),
  post(
    "marlow",
    "That did it, thanks. The new profile survived two restarts and a cold boot, and the fans are quiet again until the graphics card warms the case up.",
  ),
  post(
    "ostrava",
    "Same here on the older board revision. Worth noting that the fan headers also switched from PWM to voltage mode after the update, so check that too.",
  ),
].join("");
const purpose = (n: number) =>
  `<h4>Purpose ${n}</h4><p>These technologies of purpose ${n} may be set by partners to measure visits, build a profile of interests and show adverts elsewhere; switching them off changes what you see.</p>`;
/** A consent manager's preference center: a modal window over the page, longer than the thread. */
const PREFERENCES = `<div id="prefs" role="region" aria-label="Preferences"><div role="dialog" aria-modal="true" aria-label="Preference center"><h2>Your choices</h2>${Array.from(
  { length: 16 },
  (_, i) => purpose(i + 1),
).join("")}</div></div>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Fan curve</title>${LD}</head><body><div id="page"><h1>Fan curve after the BIOS update</h1>${body}</div></body></html>`;

describe("modal dialogs over a page", () => {
  it("drops a preference center that outweighs a short thread beside it", () => {
    const html = page(THREAD + PREFERENCES);
    const { markdown } = extractMainContent(html, "https://forum.example/t/fan-curve");
    expect(markdown).toContain("load the defaults once, set the curve again");
    expect(markdown).toContain("my case fans spin at full speed");
    expect(markdown).not.toContain("These technologies of purpose 3");
    // Without the rule the dialog holds most of the text and stays.
    const without = withPassesOff(["modal-dialogs"], () =>
      extractMainContent(html, "https://forum.example/t/fan-curve"),
    );
    expect(without.markdown).toContain("These technologies of purpose 3");
  });

  it("keeps a dialog that holds the page's text when the page shows little beside it", () => {
    const html = page(`<p>Loading.</p>${PREFERENCES}`);
    const { markdown } = extractMainContent(html, "https://forum.example/t/fan-curve");
    expect(markdown).toContain("These technologies of purpose 3");
  });
});
