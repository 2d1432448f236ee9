import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";
import { dropRepeatedQuotes } from "../../../durable-objects/extractor/post-lists";

const page = (body: string) =>
  `<!doctype html><html><head><title>Sourdough starter smells of nail polish</title></head><body><header class="site-header"><a href="/">Bakers' board</a></header><div id="page"><h1>Sourdough starter smells of nail polish</h1>${body}</div><footer><p>© 2026 Bakers' board</p></footer></body></html>`;

/** A post of a forum without microdata: poster panel, date, body, then the controls every post repeats. */
const post = (n: number, who: string, joined: string, text: string) =>
  `<div id="edit${n}"><div id="post${n}" class="postcontainer"><div class="userinfo"><a href="/members/${who}">${who}</a><div>Join Date: ${joined}</div><div><strong>Posts:</strong> <span>${n * 37}</span></div></div><div class="postdate">12 March</div><div class="postbody"><p>${text}</p></div><ul class="controls"><li><a href="#r${n}">Reply</a></li><li><a href="#q${n}">Quote</a></li><li><a href="/report/${n}">Report this post</a></li></ul></div></div>`;

const posts = [
  post(
    1,
    "crumbmaker",
    "May 2019",
    "My starter has smelled sharply of nail polish remover since I moved it to the fridge a week ago.",
  ),
  post(
    2,
    "ryeandrye",
    "Jan 2021",
    "That acetone smell means it is hungry: feed it twice a day at room temperature for a few days.",
  ),
  post(
    3,
    "levainlady",
    "Oct 2016",
    "Agreed, and use a little whole rye flour in the feeds; the smell goes once the yeast is active again.",
  ),
];

describe("threads of posts without microdata", () => {
  it("drops the controls and labelled stats every post repeats, keeping each poster, date and post", () => {
    const { markdown } = extractMainContent(page(posts.join("")), "https://bakers.example/t/9");
    expect(markdown).toBe(
      [
        "[crumbmaker](https://bakers.example/members/crumbmaker)",
        "12 March",
        "My starter has smelled sharply of nail polish remover since I moved it to the fridge a week ago.",
        "[ryeandrye](https://bakers.example/members/ryeandrye)",
        "12 March",
        "That acetone smell means it is hungry: feed it twice a day at room temperature for a few days.",
        "[levainlady](https://bakers.example/members/levainlady)",
        "12 March",
        "Agreed, and use a little whole rye flour in the feeds; the smell goes once the yeast is active again.",
      ].join("\n\n"),
    );
  });

  it("keeps short lines that only some posts share", () => {
    const two = posts.slice(0, 2).join("");
    const { markdown } = extractMainContent(page(two), "https://bakers.example/t/9");
    expect(markdown).toContain("**Posts:** 74");
    expect(markdown).toContain("Join Date: Jan 2021");
  });

  it("reads the whole thread when Readability takes its longest post for the article", () => {
    const long = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Day ${i + 1}: I fed the starter equal weights of flour and water, kept it by the oven, and noted how far it rose and how sour it smelled before the next feed.</p>`,
    ).join("");
    const reply = (n: number, who: string, text: string) =>
      `<div class="post"><a href="/members/${who}">${who}</a> <time>12 March</time><div class="post-text"><p>${text}</p></div><a href="#r${n}">Reply</a></div>`;
    const thread = `<div class="post"><a href="/members/crumbmaker">crumbmaker</a> <time>12 March</time><div class="post-text">${long}</div><a href="#r1">Reply</a></div>${reply(2, "ryeandrye", "Nice log, the smell should be gone by now; mine took about as long after a month in the fridge, and the rise came back on the sixth day.")}${reply(3, "levainlady", "Day five looks like the turning point for mine too, once the jar sat by the oven it doubled within six hours of every feed.")}${reply(4, "crumbmaker", "It is gone, thank you all for the help; the first loaf from it rose well and tasted mild rather than sharp.")}`;
    const { markdown } = extractMainContent(page(thread), "https://bakers.example/t/9");
    expect(markdown.split("\n\n").slice(-6)).toEqual([
      "[ryeandrye](https://bakers.example/members/ryeandrye) 12 March",
      "Nice log, the smell should be gone by now; mine took about as long after a month in the fridge, and the rise came back on the sixth day.",
      "[levainlady](https://bakers.example/members/levainlady) 12 March",
      "Day five looks like the turning point for mine too, once the jar sat by the oven it doubled within six hours of every feed.",
      "[crumbmaker](https://bakers.example/members/crumbmaker) 12 March",
      "It is gone, thank you all for the help; the first loaf from it rose well and tasted mild rather than sharp.",
    ]);
  });

  it("drops a reply's quote of an earlier post, keeping a short quote and the replies", () => {
    const first =
      "My starter has smelled sharply of nail polish remover since I moved it to the fridge a week ago, and it no longer doubles after a feed.";
    const second = "That acetone smell means it is hungry: feed it twice a day at room temperature.";
    const post = (who: string, body: string) =>
      `<article class="message"><a href="/members/${who}">${who}</a> <time>12 March</time><div class="message-body">${body}</div></article>`;
    const thread = [
      post("crumbmaker", `<p>${first}</p>`),
      post(
        "ryeandrye",
        `<blockquote><div>crumbmaker said:</div><p>${first}</p></blockquote><p>${second}</p>`,
      ),
      post(
        "levainlady",
        `<blockquote><p>feed it twice a day at room temperature</p></blockquote><p>Or once, with more flour.</p>`,
      ),
    ].join("");
    const { markdown } = extractMainContent(page(thread), "https://bakers.example/t/9");
    expect(markdown).toBe(
      [
        "# Sourdough starter smells of nail polish",
        "[crumbmaker](https://bakers.example/members/crumbmaker) 12 March",
        first,
        "[ryeandrye](https://bakers.example/members/ryeandrye) 12 March",
        second,
        "[levainlady](https://bakers.example/members/levainlady) 12 March",
        "> feed it twice a day at room temperature",
        "Or once, with more flour.",
      ].join("\n\n"),
    );
    // With the pass off, the reply carries the first post again, word for word.
    const off = withPassesOff(["repeated-quotes"], () =>
      extractMainContent(page(thread), "https://bakers.example/t/9"),
    ).markdown;
    expect(off.split(first)).toHaveLength(3);
  });

  it("leaves lines of a code block that start with > alone", () => {
    const log =
      "echo the starter has been fed twice today at room temperature and it doubled in size by the early evening, so it is ready to bake with";
    const markdown = [`The log line is: ${log}.`, "", "```", `> ${log}`, "```"].join("\n");
    expect(dropRepeatedQuotes(markdown)).toBe(markdown);
  });

  it("drops per-post counts and post numbers, keeping names with digits in them", () => {
    const counted = (n: number, who: string, text: string) =>
      `<div class="post"><span class="num">#${n}</span> <a href="/members/${who}">${who}</a> <time>12 March</time><div class="post-text"><p>${text}</p></div><span class="likes">${n * 4} likes</span></div>`;
    const thread = [
      counted(1, "baker42", "Does anyone keep a rye starter and a wheat starter going side by side?"),
      counted(2, "baker7", "I do; the rye one is far more forgiving when I forget a feed."),
      counted(3, "baker42", "Good to know, I will start a rye one this weekend and compare them."),
    ].join("");
    const { markdown } = extractMainContent(page(thread), "https://bakers.example/t/9");
    expect(markdown).toBe(
      [
        "# Sourdough starter smells of nail polish",
        "[baker42](https://bakers.example/members/baker42) 12 March",
        "Does anyone keep a rye starter and a wheat starter going side by side?",
        "[baker7](https://bakers.example/members/baker7) 12 March",
        "I do; the rye one is far more forgiving when I forget a feed.",
        "[baker42](https://bakers.example/members/baker42) 12 March",
        "Good to know, I will start a rye one this weekend and compare them.",
      ].join("\n\n"),
    );
  });

  it("leaves undated like blocks of a page that is not a forum alone (teasers, FAQ items)", () => {
    const teaser = (text: string) =>
      `<div class="post-card"><p>${text}</p><span class="more">Details</span></div>`;
    const cards = [
      teaser("Our rye starter kit comes with a jar, a scraper and a week of feeding notes."),
      teaser("The wheat kit adds a proofing basket and a printed guide to the first bake."),
      teaser("The spelt kit is the mildest, with a starter that rises slowly and keeps well."),
    ].join("");
    const { markdown } = extractMainContent(page(cards), "https://bakers.example/kits");
    expect(markdown.match(/Details/g)?.length).toBe(3);
  });

  it("drops a repeated quote indented inside a list item", () => {
    const first =
      "We keep our starter in the fridge between bakes and feed it the evening before, which has worked for years without any smell.";
    const markdown = [
      first,
      "",
      "- reply by ryeandrye",
      "",
      `   > ${first}`,
      "   ",
      "   Same here, the evening feed is the trick.",
    ].join("\n");
    expect(dropRepeatedQuotes(markdown)).toBe(
      [first, "", "- reply by ryeandrye", "", "   ", "   Same here, the evening feed is the trick."].join(
        "\n",
      ),
    );
  });
});
