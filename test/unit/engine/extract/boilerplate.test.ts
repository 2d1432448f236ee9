import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import {
  removeBoilerplate,
  removeJunkSections,
} from "../../../../durable-objects/engine/extract/boilerplate";
import { mainRegion } from "../../../../durable-objects/engine/extract/region";
import type { DomDocument, DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const page = (head: string, body: string) =>
  `<!doctype html><html><head><title>Page</title>${head}</head><body><header class="site-header"><a href="/">Home</a></header>${body}<footer><p>© 2026 Example</p></footer></body></html>`;
const sentence = (topic: string, n: number) =>
  `<p>${topic} note ${n}: the valve is turned a quarter, the pressure settles at one and a half bar, and the system is bled from the top radiator down.</p>`;
const productLd = `<script type="application/ld+json">{"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"40"}}</script>`;
const forumLd = `<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Pressure drops"}</script>`;

describe("boilerplate around the main content", () => {
  it("drops a long cookie-consent panel even when it outweighs a short thread", () => {
    const consent = `<div id="onetrust-consent-sdk"><h2>Privacy Preference Center</h2>${[1, 2, 3, 4, 5, 6]
      .map(
        (n) =>
          `<h4>Targeting Cookies ${n}</h4><p>These cookies may be set through our site by our advertising partners to build a profile of your interests, and we use cookies to measure visits.</p>`,
      )
      .join("")}</div>`;
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${sentence("Reply", 1)}${sentence("Reply", 2)}</main>${consent}`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    expect(markdown).toContain("Reply note 2");
    for (const junk of ["Privacy Preference Center", "Targeting Cookies", "advertising partners"])
      expect(markdown).not.toContain(junk);
  });

  it('drops the "Related discussions" list beside a thread, keeping the posts', () => {
    const related = `<div class="side"><h3>Related discussions</h3><ul>${[1, 2, 3, 4]
      .map((n) => `<li><a href="/t/${n + 10}">Another thread about boilers ${n}</a></li>`)
      .join("")}</ul></div>`;
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${sentence("Reply", 1)}${sentence("Reply", 2)}${related}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    expect(markdown).toContain("Reply note 2");
    expect(markdown).not.toContain("Related discussions");
    expect(markdown).not.toContain("Another thread about boilers");
  });

  it("keeps a block that only mentions cookies in its class when it says nothing of consent", () => {
    const html = page(
      "",
      `<main><h1>Biscuits</h1><div class="cookie-recipe">${sentence("Oven", 1)}${sentence("Oven", 2)}</div>${sentence("Dough", 3)}</main>`,
    );
    expect(extractMainContent(html, "https://bake.example/").markdown).toContain("Oven note 2");
  });

  it('drops the section under a "Customers who bought this also bought" heading, keeping the sections around it', () => {
    const others = `<section><h2>Customers who bought this also bought</h2><ul>${[1, 2, 3].map((n) => `<li><a href="/o/${n}">Other page ${n}</a> a short teaser of another page</li>`).join("")}</ul></section>`;
    const html = page(
      "",
      `<main><section><h2>Installation</h2>${sentence("Fitting", 1)}</section>${others}<section><h2>Servicing</h2>${sentence("Service", 2)}</section></main>`,
    );
    const { markdown } = extractMainContent(html, "https://heating.example/");
    expect(markdown).toContain("## Servicing");
    expect(markdown).toContain("Service note 2");
    expect(markdown).toContain("Fitting note 1");
    for (const junk of ["also bought", "Other page 2"]) expect(markdown).not.toContain(junk);
  });

  it("drops the customer reviews of a product page, keeping its description", () => {
    const reviews = `<div class="product-reviews"><h3>4.6 out of 5</h3>${[1, 2].map((n) => `<p>Reviewer ${n} loved how fast it boils.</p>`).join("")}</div>`;
    const html = page(
      productLd,
      `<main><h1>Kettle</h1>${sentence("Kettle", 1)}${sentence("Kettle", 2)}<p>$40.00</p>${reviews}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://shop.example/p/kettle");
    expect(markdown).toContain("Kettle note 2");
    for (const junk of ["Reviewer 1", "4.6 out of 5"]) expect(markdown).not.toContain(junk);
  });

  it("drops forum signatures and vote buttons, keeping every post", () => {
    const post = (n: number) =>
      `<article class="post"><span class="author">user${n}</span>${sentence("Reply", n)}<div class="post-signature">Running two boilers since 1999, ask me anything</div><div class="vote-controls">12 votes</div></article>`;
    const html = page(forumLd, `<main><h1>Pressure drops</h1>${[1, 2, 3].map(post).join("")}</main>`);
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Reply note ${n}`);
    expect(markdown).toContain("user2");
    for (const junk of ["Running two boilers", "12 votes"]) expect(markdown).not.toContain(junk);
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

  it("reads a forum's camelCase class names as words: its shareButtons bar goes, the posts stay", () => {
    const post = (n: number) =>
      `<article class="message"><div class="message-inner"><a href="/u/${n}" class="username">user${n}</a> <time>Mar 2${n}, 2025</time><div class="message-body">${sentence("Reply", n)}</div></div></article>`;
    const share =
      '<div class="shareButtons"><span class="shareButtons-label">Share:</span> <a href="#s1">Facebook</a> <a href="#s2">Bluesky</a> <a href="#s3">Tumblr</a></div>';
    const html = page(
      forumLd,
      `<div class="p-body"><h1>Pressure drops</h1><div class="block-body">${[1, 2, 3, 4].map(post).join("")}</div>${share}</div>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Reply note ${n}`);
    for (const junk of ["Bluesky", "Tumblr"]) expect(markdown).not.toContain(junk);
  });

  it("drops the starter-and-date list between a forum thread's title and its first post", () => {
    const post = (n: number) =>
      `<article class="message"><div class="message-inner"><a href="/u/${n}" class="username">user${n}</a> <time>Mar 2${n}, 2025</time><div class="message-body">${sentence("Reply", n)}</div></div></article>`;
    const meta =
      '<ul class="listInline"><li><span>Thread starter</span> <a href="/u/1">user1</a></li><li><span>Start date</span> <a href="/t/1"><time>Mar 21, 2025</time></a></li></ul>';
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${meta}${[1, 2, 3, 4].map(post).join("")}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Reply note ${n}`);
    for (const junk of ["Thread starter", "Start date"]) expect(markdown).not.toContain(junk);
  });

  it('drops a thread\'s "Featured Replies" and "Most Popular Posts" boxes, keeping the posts', () => {
    const post = (n: number) => `<article class="post">${sentence("Reply", n)}</article>`;
    const featured =
      "<section><h2>Featured Replies</h2><p>Featured excerpt: bleed the top radiator first and watch the gauge.</p></section>";
    const popular =
      "<section><h4>Most Popular Posts</h4><ul><li>Popular excerpt: the expansion vessel had lost its charge.</li></ul></section>";
    const html = page(
      forumLd,
      `<main><h1>Pressure drops</h1>${featured}${[1, 2, 3].map(post).join("")}${popular}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Reply note ${n}`);
    for (const junk of ["Featured excerpt", "Popular excerpt"]) expect(markdown).not.toContain(junk);
  });

  it('drops a thread\'s "Recently Browsing" and "Trending Content" boxes, keeping the posts', () => {
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3].map((n) => `<article class="post">${sentence("Reply", n)}</article>`).join("")}<section><h4>Trending Content - Heating Forum</h4><table><tr><td>+24</td><td><a href="/t/9">Boiler keeps cycling on and off every few minutes</a></td></tr></table></section><div><h3>Recently Browsing 2 members</h3><ul><li><a href="/u/1">radiatorfan</a></li><li><a href="/u/2">valvejockey</a></li></ul></div></main></body></html>`,
    );
    removeJunkSections(document.body as unknown as DomElement);
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3]) expect(text).toContain(`Reply note ${n}`);
    for (const junk of ["Boiler keeps cycling", "radiatorfan", "Recently Browsing"])
      expect(text).not.toContain(junk);
  });

  it('drops a vBulletin thread\'s "Posting Permissions" box, keeping the posts', () => {
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3].map((n) => `<div class="postbit">${sentence("Reply", n)}</div>`).join("")}<div class="smallfont"><h4>Posting Permissions</h4><ul><li>You <strong>may not</strong> post new threads</li><li>You <strong>may not</strong> post replies</li><li>HTML code is <strong>Off</strong></li></ul></div></main></body></html>`,
    );
    removeJunkSections(document.body as unknown as DomElement);
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3]) expect(text).toContain(`Reply note ${n}`);
    for (const junk of ["may not", "HTML code"]) expect(text).not.toContain(junk);
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

  it("drops poster cards from a dated thread on a page that states no type, keeping each poster's name", () => {
    // Only the second poster fills in profile fields: no label repeats in most posts.
    const profile = (n: number) =>
      `<dl class="postprofile"><dt><a href="/u/${n}">user${n}</a></dt>${
        n === 2
          ? "<dd><strong>Primary OS:</strong> Solaris 11</dd><dd><strong>Location:</strong> Lower Saxony</dd>"
          : ""
      }</dl>`;
    const post = (n: number) =>
      `<div id="p${n}" class="post">${profile(n)}<div class="postbody"><p>11 Sep 2024, 18:3${n}</p>${sentence("Reply", n)}</div></div>`;
    const html = page("", `<main><h1>Pressure drops</h1>${[1, 2, 3, 4].map(post).join("")}</main>`);
    const { markdown } = extractMainContent(html, "https://forum.example/viewtopic.php?t=1");
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`Reply note ${n}`);
    for (const n of [1, 2, 3, 4]) expect(markdown).toContain(`[user${n}]`);
    for (const junk of ["Primary OS", "Lower Saxony"]) expect(markdown).not.toContain(junk);
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

  it("drops the buttons list under each comment of a dated thread on a page that states no type, keeping the comments", () => {
    const post = (n: number) =>
      `<div id="c${n}" class="comment"><p class="tagline"><a class="author" href="/u/${n}">user${n}</a> <time>11 Sep 2024, 18:3${n}</time></p><div class="usertext-body">${sentence("Reply", n)}</div><ul class="flat-list buttons">${n % 2 ? '<li><a href="#c1">parent</a></li>' : ""}</ul></div>`;
    // Only the replies have a parent link: it repeats in too few comments to read as a control.
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3, 4].map(post).join("")}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "other");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`Reply note ${n}`);
    expect(text).not.toContain("parent");
  });

  it("keeps a poster's name from a removed poster card, but no link of a removed signature, in an untyped thread", () => {
    const post = (n: number) =>
      `<div id="p${n}" class="post"><div class="userinfo"><a href="/u/${n}">user${n}</a></div><p>11 Sep 2024, 18:3${n}</p>${sentence("Reply", n)}<div class="signature"><a href="/builds/${n}">${["oak bench", "steel lathe", "pine shelf", "cedar chest"][n - 1]} log</a> in progress</div></div>`;
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3, 4].map(post).join("")}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "other");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`Reply note ${n}`);
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`user${n}`);
    for (const sign of ["oak bench", "steel lathe", "pine shelf", "cedar chest"])
      expect(text).not.toContain(sign);
  });

  it("drops a forum's action bar beside a dated thread on a page that states no type, keeping the posts", () => {
    const post = (n: number) =>
      `<div id="p${n}" class="post"><div class="postbody"><p>11 Sep 2024, 18:3${n}</p>${sentence("Reply", n)}</div></div>`;
    const bar =
      '<div class="action-bar bar-top"><a href="/posting?t=1">Locked</a> <ul><li><a href="/print?t=1">Print view</a></li></ul></div>';
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${bar}${[1, 2, 3, 4].map(post).join("")}</main></body></html>`,
    );
    removeBoilerplate(document.body as unknown as DomElement, "other");
    const text = document.body.textContent ?? "";
    for (const n of [1, 2, 3, 4]) expect(text).toContain(`Reply note ${n}`);
    for (const junk of ["Locked", "Print view"]) expect(text).not.toContain(junk);
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

  it('drops the "Customer reviews" of a page that states no type, and keeps a service page\'s "What customers say"', () => {
    const review = (n: number) =>
      `<div class="review"><p><strong>Shopper ${n}</strong></p><p>Review ${n}: it boils a full jug in three minutes and the handle stays cool, though the lid squeaks a little when it opens.</p></div>`;
    const reviews = `<div class="reviews-block"><h2>Customer reviews</h2>${[1, 2, 3].map(review).join("")}</div>`;
    const shop = page(
      "",
      `<main><h1>Steel kettle</h1><p>$40.00</p>${sentence("Kettle", 1)}${sentence("Kettle", 2)}${sentence("Kettle", 3)}${sentence("Kettle", 4)}${reviews}</main>`,
    );
    const { markdown } = extractMainContent(shop, "https://shop.example/kettle");
    expect(markdown).toContain("Kettle note 4");
    for (const junk of ["Customer reviews", "Shopper 2", "Review 3: it boils"])
      expect(markdown).not.toContain(junk);
    const testimonials = reviews.replace("Customer reviews", "What customers say");
    const service = page(
      "",
      `<main><h1>Kettle repairs</h1>${sentence("Repair", 1)}${sentence("Repair", 2)}${sentence("Repair", 3)}${sentence("Repair", 4)}${testimonials}</main>`,
    );
    const kept = extractMainContent(service, "https://repair.example/").markdown;
    expect(kept).toContain("## What customers say");
    expect(kept).toContain("Review 3: it boils");
  });
  it('drops the sections under "More like this" and "Customers frequently viewed", keeping the page\'s own sections', () => {
    const others = (title: string) =>
      `<section><h2>${title}</h2><ul>${[1, 2, 3].map((n) => `<li><a href="/o/${n}">Other kettle ${n}</a> a short teaser of another product</li>`).join("")}</ul></section>`;
    const html = page(
      "",
      `<main><section><h2>Installation</h2>${sentence("Fitting", 1)}</section>${others("More like this")}<section><h2>Servicing</h2>${sentence("Service", 2)}</section>${others("Customers frequently viewed")}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://heating.example/");
    expect(markdown).toContain("Fitting note 1");
    expect(markdown).toContain("Service note 2");
    for (const junk of ["More like this", "Customers frequently viewed", "Other kettle"])
      expect(markdown).not.toContain(junk);
  });

  it('drops a block labelled as customer reviews on a page that states no type, and a "Customers say" summary', () => {
    const review = (n: number) =>
      `<li><p><strong>Shopper ${n}</strong></p><p>Review ${n}: it boils a full jug in three minutes and the handle stays cool, though the lid squeaks a little when it opens.</p></li>`;
    // The reviews' heading sits in a column beside them: only the block's label marks them.
    const reviews = `<div id="customerReviews"><div class="col-left"><h2>Ratings</h2><p>4.6 out of 5</p></div><div class="col-right"><ul>${[1, 2, 3].map(review).join("")}</ul></div></div>`;
    const summary = `<section><h3>Customers say</h3><p>Customers find the kettle quick to boil and easy to pour, and several mention that the lid squeaks.</p></section>`;
    const shop = page(
      "",
      `<main><h1>Steel kettle</h1><p>$40.00</p>${sentence("Kettle", 1)}${sentence("Kettle", 2)}${sentence("Kettle", 3)}${sentence("Kettle", 4)}${summary}${reviews}</main>`,
    );
    const { markdown } = extractMainContent(shop, "https://shop.example/kettle");
    expect(markdown).toContain("Kettle note 4");
    for (const junk of ["Shopper 2", "Review 3: it boils", "Customers say", "quick to boil"])
      expect(markdown).not.toContain(junk);
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
  });

  it('drops a "Trending topics" card whose heading sits in a header of its own above linked card titles', () => {
    const cards = [1, 2]
      .map(
        (n) =>
          `<article><h3><a href="/t/${n + 10}">Another thread about boilers ${n}</a></h3><p>A teaser of that other thread ...</p></article>`,
      )
      .join("");
    const trending = `<div class="card"><header><h3>Trending topics</h3></header><div>${cards}</div></div>`;
    const { document } = parseHTML(
      `<html><body><main><h1>Pressure drops</h1>${[1, 2, 3].map((n) => sentence("Reply", n)).join("")}${trending}</main></body></html>`,
    ) as unknown as { document: DomDocument };
    if (document.body) removeJunkSections(document.body);
    const text = document.body?.textContent ?? "";
    expect(text).toContain("Reply note 3");
    for (const junk of ["Trending topics", "Another thread about boilers", "A teaser of that other thread"])
      expect(text).not.toContain(junk);
  });

  it("reads a thread marked up as one posting from its opening post on, when its replies hold nearly all the text", () => {
    const reply = (n: number) =>
      `<div class="reply-card"><a href="/u/${n}">user${n}</a>${sentence("Reply", n)}${sentence("More", n)}</div>`;
    const thread = `<div class="thread-body" itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="opening-card"><p>Opening post: my boiler loses pressure overnight.</p></div><div class="replies">${Array.from({ length: 8 }, (_, i) => reply(i + 1)).join("")}</div></div>`;
    const { document } = parseHTML(
      `<html><body><div class="nav-top"><a href="/">Forums</a></div>${thread}</body></html>`,
    ) as unknown as { document: DomDocument };
    const region = document.body ? mainRegion(document.body, false) : null;
    expect(region?.node.textContent).toContain("Opening post: my boiler loses pressure overnight.");
    expect(region?.node.textContent).toContain("Reply note 8");
  });

  it("reads an emoji drawn as an image as its character, so a post's list of emoji lines stays", () => {
    const emoji = (alt: string) =>
      `<img class="emoji emoji-android" src="/e/${alt.length}.png" alt="${alt}">`;
    const items = ["Search by handle", "Avatars for categories", "Backfilled topics"]
      .map((t, n) => `<li>${t}, as <a href="/topic/${n}">announced</a> ${emoji("🌟")} ${emoji("🎺")}</li>`)
      .join("");
    const html = page(
      forumLd,
      `<main><h1>Release candidate</h1>${sentence("Intro", 1)}<p>New since the beta:</p><ul>${items}</ul>${sentence("Outro", 2)}${emoji(":slight_smile:")}</main>`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    expect(markdown).toContain("Avatars for categories");
    expect(markdown).toContain("🌟");
    expect(markdown).not.toContain("slight_smile");
  });
});
