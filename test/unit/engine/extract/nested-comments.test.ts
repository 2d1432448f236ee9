import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument, DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import { holdsPostText, postRuns } from "../../../../durable-objects/engine/extract/post-lists";

/** A comment of a link aggregator's thread (lobste.rs-like): a list item holding the comment and the list of its replies. */
const comment = (id: string, who: string, text: string, replies = "") =>
  `<li class="comments_subtree"><div id="c_${id}" class="comment"><div class="voters"><a class="upvoter" href="/login">4</a></div><div class="details"><div class="byline"><a href="/~${who}">${who}</a> <a href="/c/${id}"><time datetime="2024-08-12 11:00:23">1 year ago</time></a></div><div class="comment_text"><p>${text}</p></div></div></div><ol class="comments">${replies}</ol></li>`;

const page = `<!doctype html><html><head><title>Why we moved our build to Zig</title><meta property="og:type" content="article"></head><body>
<header id="nav"><a href="/">Home</a> <a href="/recent">Recent</a></header>
<div id="inside"><ol class="stories"><li class="story"><div class="details"><a class="u-url" href="https://blog.example/zig-build">Why we moved our build to Zig</a> <span class="byline">via <a href="/~ana">ana</a> <time datetime="2024-08-12 10:00:23">1 year ago</time> | 5 comments</span></div></li></ol>
<ol class="comments comments1"><li class="comments_subtree" id="story_comments"><ol class="comments">
${comment("a1", "kiri", "The cross-compilation story alone is worth it; we ship to four targets from one laptop, and the release job that used to need three build machines and a weekly prayer is now a single script anyone on the team can run and understand.")}
${comment(
  "a2",
  "dureuill",
  "I tried the same last year and the part nobody mentions is how much faster incremental builds became once the cache was warm, but it took a long time to get the caching right for our generated sources, and we rewrote the code generator twice before it was deterministic enough for the cache to hit at all.",
  comment(
    "a3",
    "kbknapp",
    "That matches what we saw: deterministic code generation is the real prerequisite, and once you have it any build system gets fast, so the win is partly the discipline the migration forced on the team rather than the tool itself.",
    comment(
      "a4",
      "dureuill",
      "Fair point, although the tool made the nondeterminism visible in the first place: the old system silently rebuilt everything, so nobody ever noticed that the generator wrote its tables in hash order, and we only found out when the new cache refused to hit.",
    ),
  ),
)}
${comment("a5", "mvo", "How did you handle the C dependencies that ship their own autotools builds? We have a dozen of those, some of them patched locally, and porting each build script by hand looks like months of work that nobody wants to own.")}
</ol></li></ol></div>
<footer><a href="/about">About</a></footer></body></html>`;

describe("a nested comment thread (Readability took one comment as the article)", () => {
  const doc = parseHTML(page).document as unknown as DomDocument;
  const body = doc.body as DomElement;

  it("is one thread of every comment, however deep, when asked", () => {
    const runs = postRuns(body, true, undefined, true);
    expect(runs.map((posts) => posts.length)).toEqual([5]);
    expect(runs[0].map((post) => post.getAttribute("id"))).toEqual(["c_a1", "c_a2", "c_a3", "c_a4", "c_a5"]);
  });

  it("is no run of siblings otherwise (a blog's comment list is built the same way)", () => {
    expect(postRuns(body, true)).toEqual([]);
  });

  it("is asked for when the article holds a post's text", () => {
    const text = doc.querySelector("#c_a2 .comment_text") as DomElement;
    expect(holdsPostText(text.parentElement as DomElement)).toBe(true);
    expect(holdsPostText(doc.querySelector(".stories") as DomElement)).toBe(false);
  });
});
