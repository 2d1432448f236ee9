import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { removeBoilerplate } from "../../../../durable-objects/engine/extract/boilerplate";
import type { DomDocument, DomElement } from "../../../../durable-objects/engine/extract/dom-types";

const post = (n: number, who: string, text: string) =>
  `<div class="post" id="review_${n}"><div class="username"><a href="/Profile/${who}">${who}</a></div><div class="postDate">Jan ${n}, 2026, 9:4${n} AM</div><div class="postBody"><p>${text}</p></div></div>`;

/** A travel forum's thread (no heading elements in its side boxes: their titles are classed blocks). */
const page = `<!doctype html><html><head><title>Tips from a first time Japan trip</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Tips from a first time Japan trip"}</script></head><body><div id="main"><h1>Tips from a first time Japan trip</h1><div class="posts">
${post(1, "poppy", "Egg sandwiches from the convenience stores were the best breakfast of the trip, and the rail pass paid for itself by the third day of travelling between cities.")}
${post(2, "michan", "Thank you for the report. Kyoto in April is crowded, but the early morning temples are quiet enough if you start before seven.")}
${post(3, "slalomer", "A happy new year to you. Those planning a winter trip should pack a good pair of boots for the snow in the mountains.")}
</div>
<div id="RECENT_CONVO" class="wrap"><div class="convo_title">Recent Conversations</div><div><ul id="CONVO_LIST"><li><span class="topic"><a href="/ShowTopic-1">Car service airport transfer options</a></span> <span class="date">3:06 pm</span></li><li><span class="topic"><a href="/ShowTopic-2">Haneda airport arrival assistance</a></span> <span class="date">2:57 pm</span></li><li><span class="topic"><a href="/ShowTopic-3">Pocket WiFi rental experience</a></span> <span class="date">2:41 pm</span></li></ul></div></div>
</div></body></html>`;

describe("a side box titled by a classed block", () => {
  const doc = parseHTML(page).document as unknown as DomDocument;
  removeBoilerplate(doc.body as DomElement, "forum");
  const markdown = (doc.body?.textContent ?? "").replace(/\s+/g, " ");

  it("goes when its title reads like a junk heading (other threads)", () => {
    expect(markdown).not.toContain("Recent Conversations");
    expect(markdown).not.toContain("Haneda airport arrival assistance");
  });

  it("leaves the thread's posts", () => {
    expect(markdown).toContain("Egg sandwiches from the convenience stores");
    expect(markdown).toContain("early morning temples are quiet");
    expect(markdown).toContain("good pair of boots");
  });
});
