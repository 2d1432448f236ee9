import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { readJsonLd } from "../../../durable-objects/extractor/metadata";
import { pageKind } from "../../../durable-objects/extractor/page-kind";
import { dropRepeatedParagraphs } from "../../../durable-objects/extractor/post-lists";

const kindOf = (html: string) =>
  pageKind(parseHTML(html).document as unknown as DomDocument, readJsonLd(html));
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

describe("what a thread says it is", () => {
  it("reads a WebPage's mainEntity: a page about a forum posting is a forum", () => {
    const html = `<html><head>${ld('{"@context":"https://schema.org","@type":"WebPage","mainEntity":{"@type":"DiscussionForumPosting","headline":"Kiln wash flaking"}}')}</head><body><p>x</p></body></html>`;
    expect(kindOf(html)).toBe("forum");
  });

  it("reads JSON-LD whose strings hold raw line breaks and tabs", () => {
    const html = `<html><head>${ld('{"@type":"DiscussionForumPosting",\n"headline":"Kiln wash\tflaking",\n"articleBody":"First line\nsecond line"}')}</head><body><p>x</p></body></html>`;
    expect(readJsonLd(html)).toEqual([
      {
        "@type": "DiscussionForumPosting",
        headline: "Kiln wash flaking",
        articleBody: "First line second line",
      },
    ]);
    expect(kindOf(html)).toBe("forum");
  });

  it("takes answers marked up alone (no question item) as a forum", () => {
    const html = `<html><body><div itemscope itemtype="https://schema.org/Answer"><p>Use a thinner coat.</p></div></body></html>`;
    expect(kindOf(html)).toBe("forum");
  });
});

/** A comment whose text sits in an edit-in-place form, its id a generated key, with the controls every comment repeats. */
const comment = (key: string, who: string, hours: number, text: string) =>
  `<div class="thing comment" id="thing_t1_${key}"><p class="tagline"><a href="/user/${who}">${who}</a> <time datetime="2026-03-04T1${hours}:00:00Z">${hours} hours ago</time></p><form class="usertext" action="#"><input type="hidden" name="id" value="${key}"><div class="usertext-body"><div class="md"><p>${text}</p></div></div></form><ul class="buttons"><li><a href="/c/${key}">permalink</a></li><li><a href="#">save</a></li><li><a href="#">reply</a></li></ul></div>`;

describe("comments shown in edit-in-place forms", () => {
  it("keeps each comment's text and drops the controls every comment repeats", () => {
    const comments = [
      comment("o8nd42m", "glazer", 5, "Thin coats help, and so does sanding the old wash off first."),
      comment("o8n5jvy", "throwdown", 4, "I switched to a wash with alumina hydrate and it stopped flaking."),
      comment("qq71bz0", "kilnsitter", 3, "Check the shelves are clean and dry before you brush it on."),
    ].join("");
    const html = `<html><head><title>Kiln wash flaking</title></head><body><header><a href="/">Pottery</a></header><div class="content"><h1>Kiln wash flaking</h1><p class="intro">Posted by glazer. My kiln wash flakes after every firing, what am I doing wrong?</p><form class="search" action="/search"><label>Search</label><input name="q"></form><div class="commentarea">${comments}</div></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://pottery.example/r/kilns/1");
    expect(markdown).toBe(
      [
        "# Kiln wash flaking",
        "Posted by glazer. My kiln wash flakes after every firing, what am I doing wrong?",
        "[glazer](https://pottery.example/user/glazer) 5 hours ago",
        "Thin coats help, and so does sanding the old wash off first.",
        "[throwdown](https://pottery.example/user/throwdown) 4 hours ago",
        "I switched to a wash with alumina hydrate and it stopped flaking.",
        "[kilnsitter](https://pottery.example/user/kilnsitter) 3 hours ago",
        "Check the shelves are clean and dry before you brush it on.",
      ].join("\n\n"),
    );
  });
});

describe("paragraphs a thread repeats", () => {
  const first =
    "My kiln wash flakes after every firing, and the chips land on the glazed pots on the shelf below.";
  const question =
    "**Which clay body do you throw most, and why did you settle on it after all these years?**";
  it("keeps a post once when a reply shows it again (a parent-post preview), leaving code, bold questions and short lines", () => {
    // Repeated, and all kept: a code block, a short line, a wholly bold question.
    const sample = "wash: 50 alumina hydrate, 50 kaolin, water to cream";
    const block = ["", "```", sample, "```", "", "glazer"];
    const kept = [...block, ...block, "", question, "", question];
    const markdown = [
      `- ${first}`,
      "  ",
      "  Any idea what I am doing wrong?",
      `- ${first}`,
      "  ",
      "  Your coats are too thick: two thin coats, each left to dry.",
      ...kept,
    ].join("\n");
    expect(dropRepeatedParagraphs(markdown)).toBe(
      [
        `- ${first}`,
        "  ",
        "  Any idea what I am doing wrong?",
        "  ",
        "  Your coats are too thick: two thin coats, each left to dry.",
        ...kept,
      ].join("\n"),
    );
  });
});

describe("a thread's call to join", () => {
  it("drops the guest's sign-in box under the last post", () => {
    const post = (n: number, who: string, text: string) =>
      `<article class="post" id="post-${n}"><a href="/u/${who}">${who}</a> <time datetime="2026-02-0${n}">2 Feb</time><div class="post-body"><p>${text}</p></div></article>`;
    const html = `<html><head><title>Bisque before glaze?</title></head><body><div class="topic"><h1>Bisque before glaze?</h1>${post(1, "glazer", "Do you always bisque fire before glazing, or do some of you single fire your pots?")}${post(2, "throwdown", "I single fire small pieces, but bigger ones crack unless I bisque them first.")}${post(3, "kilnsitter", "Bisque every time here: the glaze goes on evenly and handling is easier.")}<div class="guest-teaser"><h2>Create an account or sign in to comment</h2><p>You need to be a member in order to leave a comment</p><div><h3>Create an account</h3><p>Sign up for a new account in our community. It's easy!</p><h3>Sign in</h3><p>Already have an account? Sign in here.</p></div></div></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://pottery.example/t/8");
    expect(markdown).toBe(
      [
        "[glazer](https://pottery.example/u/glazer)",
        "Do you always bisque fire before glazing, or do some of you single fire your pots?",
        "[throwdown](https://pottery.example/u/throwdown)",
        "I single fire small pieces, but bigger ones crack unless I bisque them first.",
        "[kilnsitter](https://pottery.example/u/kilnsitter)",
        "Bisque every time here: the glaze goes on evenly and handling is easier.",
      ].join("\n\n"),
    );
  });
});
