import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument, DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import { removeRepeatedControls } from "../../../../durable-objects/engine/extract/post-lists";

/** A post of an older forum (XenForo 1-like) whose posts are list items, each with the poster's stats panel. */
const post = (n: number, who: string, text: string) =>
  `<li id="post-${n}" class="message"><div class="messageUserInfo"><h3 class="userText"><a href="/members/${who}.${n}/" class="username">${who}</a></h3><div class="extraUserInfo"><dl class="pairsJustified"><dt>Messages:</dt><dd><a href="/search/member?user_id=${n}">${n * 37}</a></dd></dl><dl class="pairsJustified"><dt>Likes Received:</dt><dd>${n * 3}</dd></dl><dl class="pairsJustified"><dt>Trophy Points:</dt><dd>${n + 4}</dd></dl></div></div><div class="messageInfo"><div class="messageContent"><blockquote class="messageText">${text}</blockquote></div><div class="messageMeta"><a href="/members/${who}.${n}/" class="username">${who}</a>, <span class="DateTime">May ${n + 10}, 2024</span> <a href="/posts/${n}/report" class="item control report">Report</a></div></div></li>`;

const page = `<!doctype html><html><head><title>Do forums still have a role?</title><meta property="og:type" content="article"></head><body><div id="content"><h1>Do forums still have a role?</h1><ol class="messageList" id="messageList">
${post(1, "ajay", "Forums gave birth to social networking as a marketing tool. Do they still have a role now that everyone gathers on a handful of big platforms, and what about their structure keeps them useful for finding knowledge?")}
${post(2, "spartan", "They do: a thread stays findable for years, while a post on a feed is gone in a day. Search engines still send a steady trickle of visitors to answers written a decade ago, and those visitors often stay.")}
${post(3, "margo", "Niche forums survive because the people there know each other by name. The big platforms never gave that back, and moderation by members who care is something an algorithm does not replace.")}
${post(4, "greenhost", "We still answer hosting questions on two boards every week. The traffic is small, but the people who arrive from a good answer tend to become customers who stay for years.")}
</ol></div></body></html>`;

/** The thread's list, as what is printed of a page labelled article, after one pass. */
function cleaned(items: boolean): string {
  const doc = parseHTML(page).document as unknown as DomDocument;
  const list = doc.querySelector("#messageList") as DomElement;
  removeRepeatedControls(list, true, undefined, items);
  return (list.textContent ?? "").replace(/\s+/g, " ");
}

describe("a thread of list items printed on a page labelled article", () => {
  const text = cleaned(true);

  it("keeps every post and its poster", () => {
    expect(text).toContain("Do they still have a role now");
    expect(text).toContain("a thread stays findable for years");
    expect(text).toContain("moderation by members who care");
    expect(text).toContain("tend to become customers");
    expect(text).toContain("greenhost");
  });

  it("drops the poster stats and the controls every post repeats", () => {
    expect(text).not.toContain("Trophy Points");
    expect(text).not.toContain("Likes Received");
    expect(text).not.toContain("Report");
  });

  it("is no thread where list items are not asked to be posts", () => {
    expect(cleaned(false)).toContain("Trophy Points");
  });
});
