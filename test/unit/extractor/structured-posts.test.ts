import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
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
const _comment = (key: string, who: string, hours: number, text: string) =>
  `<div class="thing comment" id="thing_t1_${key}"><p class="tagline"><a href="/user/${who}">${who}</a> <time datetime="2026-03-04T1${hours}:00:00Z">${hours} hours ago</time></p><form class="usertext" action="#"><input type="hidden" name="id" value="${key}"><div class="usertext-body"><div class="md"><p>${text}</p></div></div></form><ul class="buttons"><li><a href="/c/${key}">permalink</a></li><li><a href="#">save</a></li><li><a href="#">reply</a></li></ul></div>`;

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
