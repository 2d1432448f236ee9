import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { removeBoilerplate } from "../../../durable-objects/extractor/boilerplate";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const page = (head: string, body: string) =>
  `<!doctype html><html><head><title>Page</title>${head}</head><body><header class="site-header"><a href="/">Home</a></header>${body}<footer><p>© 2026 Example</p></footer></body></html>`;
const sentence = (topic: string, n: number) =>
  `<p>${topic} note ${n}: the valve is turned a quarter, the pressure settles at one and a half bar, and the system is bled from the top radiator down.</p>`;
const productLd = `<script type="application/ld+json">{"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"40"}}</script>`;
const forumLd = `<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Pressure drops"}</script>`;

describe("boilerplate around the main content", () => {
  it("drops the customer reviews of a product page, keeping its description", () => {
    const reviews = `<div class="product-reviews"><h3>4.6 out of 5</h3>${[1, 2].map((n) => `<p>Reviewer ${n} loved how fast it boils.</p>`).join("")}</div>`;
    const html = page(
      productLd,
      `<main><h1>Kettle</h1>${sentence("Kettle", 1)}${sentence("Kettle", 2)}<p>$40.00</p>${reviews}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://shop.example/p/kettle");
    expect(markdown).toContain("Kettle note 2");
    for (const junk of ["Reviewer 1", "4.6 out of 5"]) expect(markdown).not.toContain(junk);
    // The reviews go as a product page's widget (kind-widgets): without it they are read as the description's tail.
    const off = withPassesOff(
      ["kind-widgets"],
      () => extractMainContent(html, "https://shop.example/p/kettle").markdown,
    );
    expect(off).toContain("### 4.6 out of 5\n\nReviewer 1 loved how fast it boils.");
  });

  it("drops forum signatures and vote buttons, keeping every post", () => {
    const post = (n: number) =>
      `<article class="post"><span class="author">user${n}</span>${sentence("Reply", n)}<div class="post-signature">Running two boilers since 1999, ask me anything</div><div class="vote-controls">12 votes</div></article>`;
    const html = page(forumLd, `<main><h1>Pressure drops</h1>${[1, 2, 3].map(post).join("")}</main>`);
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Reply note ${n}`);
    expect(markdown).toContain("user2");
    for (const junk of ["Running two boilers", "12 votes"]) expect(markdown).not.toContain(junk);
    // The signatures go as a forum's widgets (kind-widgets): without it each post keeps its signature.
    const off = withPassesOff(
      ["kind-widgets"],
      () => extractMainContent(html, "https://forum.example/t/1").markdown,
    );
    expect(off.split("Running two boilers since 1999, ask me anything").length - 1).toBe(3);
  });

  it("keeps an answer whose class states how it was voted (downvoted-answer), dropping the vote buttons", () => {
    const answer = (n: number, state: string) =>
      `<div class="answer ${state}"><div class="vote-cell">${n * 3 - 5} votes</div><div class="answer-body">${sentence("Answer", n)}</div></div>`;
    const answers = [
      answer(1, "accepted-answer"),
      answer(2, ""),
      answer(3, ""),
      answer(4, "downvoted-answer"),
    ];
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${sentence("Question", 0)}${answers.join("")}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/q/1");
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Answer note ${n}`);
    expect(markdown).not.toContain("votes");
  });

  it("drops a post's last-edit note and its like count, keeping the post", () => {
    const post = (n: number, extra: string) =>
      `<article class="post"><span class="author">user${n}</span>${sentence("Reply", n)}${extra}</article>`;
    const posts = [
      post(1, '<div class="message-lastEdit">Last edited: yesterday at 9:14</div>'),
      post(2, '<span class="post-likes">3 Likes</span>'),
      post(3, ""),
      post(4, ""),
    ];
    const html = page(forumLd, `<main><h1>Pressure drops</h1>${posts.join("")}</main>`);
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Reply note ${n}`);
    for (const junk of ["Last edited", "3 Likes"]) expect(markdown).not.toContain(junk);
  });

  it("drops the notice a Q&A thread shows below its answers, keeping every answer", () => {
    const answer = (n: number) =>
      `<article class="post"><span class="author">user${n}</span>${sentence("Answer", n)}</article>`;
    const notice =
      '<div class="js-bottom-notice"><p><b>Start asking to get answers</b></p><p>Find the answer to your question by asking.</p><a href="/ask">Ask question</a></div>';
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${[1, 2, 3].map(answer).join("")}${notice}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Answer note ${n}`);
    for (const junk of ["Start asking", "Find the answer to your question"])
      expect(markdown).not.toContain(junk);
  });

  it("drops a forum thread's pager (page numbers, Go to topic listing), keeping the posts", () => {
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3].map((n) => `<article class="post">${sentence("Reply", n)}</article>`).join("")}<div class="ipsPager"><a href="/forum/7" rel="parent">Go to topic listing</a></div><ul class="pagination"><li><a href="?page=2">2</a></li><li><a href="?page=2">Next page</a></li></ul></main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "forum");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3]) expect(text).toContain(`Reply note ${n}`);
    for (const junk of ["topic listing", "Next page"]) expect(text).not.toContain(junk);
  });

  it('drops the "2 weeks later..." gap marks between a forum thread\'s posts, keeping the posts', () => {
    const gap =
      '<ul class="ipsTopicMeta"><li class="ipsTopicMeta__item ipsTopicMeta__item--time">2 weeks later...</li></ul>';
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3].map((n) => `<article class="post">${sentence("Reply", n)}</article>`).join(gap)}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "forum");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3]) expect(text).toContain(`Reply note ${n}`);
    expect(text).not.toContain("later...");
  });

  it("drops a forum thread's follow button (Followers 8), keeping the posts", () => {
    const follow =
      '<div class="ipsFollow"><a href="/login/" title="Sign in to follow this"><span>Followers</span> <span>8</span></a></div>';
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${follow}${[1, 2, 3].map((n) => `<article class="post">${sentence("Reply", n)}</article>`).join("")}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "forum");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3]) expect(text).toContain(`Reply note ${n}`);
    expect(text).not.toContain("Followers");
  });

  it("drops a thread's stats box (replies, views, created) on a forum page", () => {
    const post = (n: number) => `<article class="post">${sentence("Reply", n)}</article>`;
    const stats =
      '<div class="topic-overview"><ul class="overview__item--stats"><li><span>Replies</span> <span>154</span></li><li><span>Views</span> <span>26.2k</span></li><li><span>Created</span> <span>Apr 2024</span></li></ul></div>';
    const html = page(forumLd, `<main><h1>Pressure drops</h1>${[1, 2, 3].map(post).join("")}${stats}</main>`);
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Reply note ${n}`);
    for (const junk of ["Views", "26.2k"]) expect(markdown).not.toContain(junk);
  });

  it("drops each post's who-liked line, thread-starter badge and action list on a forum page, keeping the posts", () => {
    const post = (n: number) =>
      `<div class="post" id="post${n}"><div class="poster"><a href="/u/${n}">user${n}</a>${n === 1 ? '<span class="threadstarter">Original Poster</span>' : ""}</div>${sentence("Reply", n)}<div class="vbseo_liked"><a href="/u/9">ninth</a> and <a href="/u/8">eighth</a> like this.</div><ul class="DiscussionBoard-actionList"><li><a href="#">[ ${n} ] Thanks</a></li></ul></div>`;
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3, 4].map(post).join("")}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "forum");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`Reply note ${n}`);
    for (const junk of ["like this", "Original Poster", "Thanks"]) expect(text).not.toContain(junk);
  });

  it("returns no content, and the page's description beside it, when its content is drawn by script alone", () => {
    const html = page(
      `<meta name="description" content="A thread about a boiler that keeps losing pressure overnight.">`,
      `<div id="app"></div>`,
    );
    const { markdown, description } = extractMainContent(html, "https://forum.example/t/2");
    expect(markdown).toBe("");
    expect(description).toBe("A thread about a boiler that keeps losing pressure overnight.");
  });

  it("gives the longest description the page states when its content is drawn by script alone", () => {
    const html = page(
      `<meta name="description" content="Boiler pressure thread.">
       <meta property="og:description" content="Boiler pressure thread: the gauge falls from 1.5 to 0.5 bar overnight.">
       <meta name="twitter:description" content="Boiler pressure thread: the gauge falls overnight.">`,
      `<div id="app"></div>`,
    );
    const { markdown, description } = extractMainContent(html, "https://forum.example/t/3");
    expect(markdown).toBe("");
    expect(description).toBe("Boiler pressure thread: the gauge falls from 1.5 to 0.5 bar overnight.");
  });

  it("drops the small print (a disclaimer, a legal notice) of a page that states no type, keeping an illegal-content note", () => {
    const disclaimer = `<div class="product-disclaimer"><p>Boiling times were measured at sea level; actual results may vary with the stove and the altitude.</p></div>`;
    const legal = `<div class="footer_legal"><p>Kettle is a registered trademark of the maker. Financing offered by a partner bank, subject to approval.</p></div>`;
    const kept = `<p class="form-illegal-content">Kettle note five: the spout is drawn long and narrow so that it pours a thin stream.</p>`;
    const shop = page(
      "",
      `<main><h1>Steel kettle</h1><p>$40.00</p>${sentence("Kettle", 1)}${sentence("Kettle", 2)}${sentence("Kettle", 3)}${sentence("Kettle", 4)}${kept}${disclaimer}${legal}</main>`,
    );
    const { markdown } = extractMainContent(shop, "https://shop.example/kettle");
    expect(markdown).toContain("Kettle note 4");
    expect(markdown).toContain("Kettle note five");
    for (const junk of ["results may vary", "registered trademark", "partner bank"])
      expect(markdown).not.toContain(junk);
    // The disclaimer goes as the small print of a page of no stated type (kind-widgets).
    const off = withPassesOff(
      ["kind-widgets"],
      () => extractMainContent(shop, "https://shop.example/kettle").markdown,
    );
    expect(off).toContain("Boiling times were measured at sea level; actual results may vary");
  });
});
