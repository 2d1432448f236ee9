import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Winter storage for a sailing dinghy"}</script>`;
const OPENING =
  "Where do you keep a small sailing dinghy over the winter? Mine has spent two winters on its trailer under a tarp in the yard, and this spring the hull had green streaks and the rudder fittings had started to rust, so I am looking for something better this year.";
const sentences = [
  "A breathable cover fitted to the hull keeps the rain out without trapping damp underneath, which a plastic tarp always does after a few weeks.",
  "Take the rudder, the tiller and the daggerboard indoors and rinse the fittings with fresh water before they go on a shelf for the winter.",
  "Tilt the trailer so that the bow sits higher than the stern and any water that does get in runs out through the open drain plug.",
  "Our club rents covered racks for the season at a fair price; ask at yours, even a shed with a roof and open sides is better than the yard.",
  "Wash the hull before it goes away and give it a coat of polish; the green streaks come from dirt that sat on the gelcoat all winter long.",
];
const reply = (n: number) =>
  `<div class="reply-item" id="r${n}"><p class="who">sailor${n} · Oct ${n + 2}, 2024</p><p>${sentences[n]}</p><p>${sentences[(n + 2) % sentences.length]}</p></div>`;
const PAGE = `<!doctype html><html><head><title>Winter storage</title>${LD}</head><body><div id="wrap"><h1>Winter storage for a sailing dinghy</h1><div class="op-meta"><div class="who">keelboat · Oct 1, 2024</div><div>${OPENING}</div></div><div class="post-list">${[0, 1, 2, 3, 4].map(reply).join("")}</div></div></body></html>`;

describe("a thread Readability reads from its second post", () => {
  it("keeps the opening post that sits in a container of its own", () => {
    const { markdown } = extractMainContent(PAGE, "https://forum.example/t/winter-storage");
    expect(markdown).toContain("Where do you keep a small sailing dinghy over the winter?");
    expect(markdown).toContain("even a shed with a roof and open sides");
    const without = withPassesOff(["thread-opening"], () =>
      extractMainContent(PAGE, "https://forum.example/t/winter-storage"),
    );
    expect(without.markdown).toContain("even a shed with a roof and open sides");
    expect(without.markdown).not.toContain("Where do you keep a small sailing dinghy");
  });
});
