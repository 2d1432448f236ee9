import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { keepPostMeta } from "../../../durable-objects/extractor/post-meta";

const ld =
  '<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Chain skips under load"}</script>';
const page = (posts: string) =>
  `<!doctype html><html><head><title>Chain skips under load</title>${ld}</head><body><header class="site-header"><a href="/">Cycle workshop</a></header><main><h1>Chain skips under load</h1><div class="thread">${posts}</div></main></body></html>`;

/** A post as forum software prints it: a user card (name, title, stats), a header with the date and number, the text, then controls. */
const post = (n: number, who: string, date: string, text: string) =>
  `<article class="message" id="post-${n}"><div class="message-user" itemprop="author"><div class="avatar"><a href="/members/${who}"><span role="img">${who[0].toUpperCase()}</span></a></div><h4 class="message-name"><a href="/members/${who}" class="username">${who}</a></h4><h5 class="message-title">Regular rider</h5><dl class="pairs"><dt>Messages</dt><dd>${n * 120}</dd></dl></div><div class="message-main"><header class="message-attribution"><a href="/posts/${n}"><time datetime="2026-03-0${n}">${date}, 2026</time></a><a href="/posts/${n}">#${n}</a></header><div class="message-body"><p>${text}</p></div><footer class="message-footer"><a href="/posts/${n}/reply">Reply</a></footer></div></article>`;

describe("each post's author and date", () => {
  it("puts the poster's name and the post's date on a line above its text", () => {
    const html = page(
      [
        post(
          1,
          "spokewise",
          "Mar 1",
          "My chain skips on the two smallest cogs whenever I climb out of the saddle, even after a new cassette.",
        ),
        post(
          2,
          "derailleurdan",
          "Mar 2",
          "Check the chain for stretch with a gauge; a worn chain skips on new cogs that it has not worn in with.",
        ),
        post(
          3,
          "spokewise",
          "Mar 3",
          "The gauge says it is past 0.75, so a new chain it is. Thanks, that explains why the new cassette did not help.",
        ),
      ].join(""),
    );
    const { markdown } = extractMainContent(html, "https://cycles.example/t/41");
    const lines = markdown.split("\n\n");
    expect(lines).toContain("[spokewise](https://cycles.example/members/spokewise) · Mar 1, 2026");
    expect(lines).toContain("[derailleurdan](https://cycles.example/members/derailleurdan) · Mar 2, 2026");
    expect(lines).toContain("[spokewise](https://cycles.example/members/spokewise) · Mar 3, 2026");
    const at = lines.indexOf("[derailleurdan](https://cycles.example/members/derailleurdan) · Mar 2, 2026");
    expect(lines[at + 1]).toMatch(/^Check the chain for stretch/);
    expect(markdown).not.toContain("Regular rider");
  });

  it("keeps the dates Readability keeps in a thread (an article's cleanup drops them as a dateline)", () => {
    const reply = (who: string, date: string, text: string) =>
      `<div class="reply"><p><a href="/members/${who}">${who}</a> wrote on <time>${date}</time>:</p><p>${text}</p></div>`;
    const html = page(
      [
        reply(
          "spokewise",
          "1 March 2026",
          "My chain skips on the two smallest cogs whenever I climb out of the saddle, even after a new cassette.",
        ),
        reply(
          "derailleurdan",
          "2 March 2026",
          "Check the chain for stretch with a gauge; a worn chain skips on new cogs that it has not worn in with.",
        ),
        reply(
          "spokewise",
          "3 March 2026",
          "The gauge says it is past 0.75, so a new chain it is. Thanks, that explains why the new cassette did not help.",
        ),
      ].join(""),
    );
    const { markdown } = extractMainContent(html, "https://cycles.example/t/41");
    expect(markdown.split("\n\n")).toContain(
      "[derailleurdan](https://cycles.example/members/derailleurdan) wrote on 2 March 2026:",
    );
  });
  it("prints a post's date once: its label (Posted) and a phone layout's copy of the header go with it", () => {
    // Invision: a phone-only header (name, "Posted <time>") and the desktop header ("Posted <time>") in each post.
    const ips = (n: number, who: string, text: string) =>
      `<article class="cPost ipsComment" id="elComment_${n}"><div class="cAuthorPane_mobile"><h3 class="cAuthorPane_author"><a href="/profile/${who}">${who}</a></h3><div class="ipsType_light"><a href="/topic/7/#findComment-${n}">Posted <time datetime="2026-03-0${n}T10:00:00Z">March ${n}, 2026</time></a></div></div><aside class="cAuthorPane"><h3 class="cAuthorPane_author"><a href="/profile/${who}">${who}</a></h3></aside><div class="ipsColumn"><div class="ipsComment_meta"><div class="ipsType_reset">Posted <time datetime="2026-03-0${n}T10:00:00Z">March ${n}, 2026</time></div></div><div class="cPost_contentWrap"><div class="ipsType_richText"><p>${text}</p></div></div></div></article>`;
    const { document } = parseHTML(
      `<html><body><div class="thread">${ips(1, "spokewise", "My chain skips on the two smallest cogs whenever I climb out of the saddle.")}${ips(2, "derailleurdan", "Check the chain for stretch with a gauge; a worn chain skips on new cogs.")}</div></body></html>`,
    );
    const posts = [...document.querySelectorAll("article")] as unknown as DomElement[];
    keepPostMeta(posts);
    const text = (document.body.textContent ?? "").replace(/\s+/g, " ");
    expect(posts[1].querySelector("p")?.textContent).toBe("derailleurdan · March 2, 2026");
    expect(text.match(/March 2, 2026/g)).toHaveLength(1);
    expect(text).not.toContain("Posted");
  });
  it("leaves out a date told from now (17 hours ago): the day the page was fetched, not the post's", () => {
    const reply = (n: number, who: string, when: string, text: string) =>
      `<div class="comment" id="c${n}"><p class="tagline"><a class="author" href="/user/${who}">${who}</a> <time datetime="2026-03-01T0${n}:00:00Z">${when}</time></p><div class="usertext-body"><p>${text}</p></div></div>`;
    const { document } = parseHTML(
      `<html><body><div class="comments">${reply(1, "spokewise", "17 hours ago", "My chain skips on the two smallest cogs whenever I climb out of the saddle.")}${reply(2, "derailleurdan", "March 1, 2026", "Check the chain for stretch with a gauge; a worn chain skips on new cogs.")}</div></body></html>`,
    );
    const posts = [...document.querySelectorAll(".comment")] as unknown as DomElement[];
    keepPostMeta(posts);
    expect(posts[0].querySelector("p")?.textContent).toBe("spokewise");
    expect(posts[0].textContent).not.toContain("ago");
    expect(posts[1].querySelector("p")?.textContent).toBe("derailleurdan · March 1, 2026");
  });
});
