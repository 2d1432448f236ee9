import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const story = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Part ${i + 1} of the post: a small team that ships a rough first version every week learns more about its customers than one that polishes a plan for a year.</p>`,
).join("");
const comment = (n: number) =>
  `<li class="comment" id="c${n}"><div class="comment-header"><cite><a href="/profile/${n}">Reader ${n}</a></cite> <a href="/post?c=${n}">March ${n}, 2020</a></div><p class="comment-content">Comment number ${n}: this matches what we saw in our own shop, where every release taught us which features nobody used and which ones they asked for twice.</p><span class="comment-actions"><a href="/reply?c=${n}">Reply</a></span></li>`;
/** An untyped blog page: the post and its readers' comments in one post wrapper, the page's main region. */
const page = (heading: string) =>
  `<!doctype html><html><head><title>Small teams</title></head><body><header><a href="/">Home</a> <a href="/archive">Archive</a></header><div class="post-outer"><div class="post"><h3 class="post-title">Small teams</h3><div class="post-body">${story}</div></div><div class="comments" id="comments"><h4>${heading}</h4><ol>${Array.from({ length: 8 }, (_, i) => comment(i + 1)).join("")}</ol></div></div><footer><p>Powered by a blog host.</p></footer></body></html>`;

describe("readers' comments under a story read from its region", () => {
  it("drops the comment block that opens with a heading counting the comments", () => {
    const { markdown } = extractMainContent(page("8 comments:"), "https://blog.example/small-teams");
    expect(markdown).toContain("Part 1 of the post: a small team that ships a rough first version");
    expect(markdown).toContain("Part 6 of the post");
    expect(markdown).not.toContain("8 comments:");
    expect(markdown).not.toContain("Comment number 1:");
  });

  it("keeps a comment block whose heading does not count comments", () => {
    const { markdown } = extractMainContent(page("What readers say"), "https://blog.example/small-teams");
    expect(markdown).toContain("Part 6 of the post");
    expect(markdown).toContain("Comment number 1:");
  });
});
