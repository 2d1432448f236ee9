import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../durable-objects/extractor/dom-types";
import { removeEditNotes } from "../../../durable-objects/extractor/edit-notes";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const page = (posts: string) =>
  `<!doctype html><html><head><title>Chain skips under load</title></head><body><header class="site-header"><a href="/">Cycle workshop</a></header><main><h1>Chain skips under load</h1><div class="posts">${posts}</div></main></body></html>`;

/** A post of a board that states no type (vBulletin-like): poster, date, text, then the forum's note of its last edit. */
const post = (n: number, who: string, text: string, note: string) =>
  `<div class="postbit" id="post${n}"><div class="postdetails"><a class="username" href="/members/${who}">${who}</a> <span class="date">0${n}-03-2026, 09:1${n} AM</span></div><div class="postbody"><p>${text}</p>${note}</div></div>`;

describe("a post's edit note", () => {
  it("drops the forum's note of who last edited a post, keeping the poster's own words about an edit", () => {
    const html = page(
      [
        post(
          1,
          "spokewise",
          "My chain skips on the two smallest cogs whenever I climb out of the saddle, even after a new cassette.",
          '<div class="smallfont"><em>Last edited by spokewise; Mar 1, 2026 at 9:17 am</em></div>',
        ),
        post(
          2,
          "derailleurdan",
          "Check the chain for stretch with a gauge; a worn chain skips on new cogs that it has not worn in with. Edited for a typo.",
          '<span class="ipsType_light"><strong>Edited <time datetime="2026-03-02">March 2</time> by derailleurdan</strong> <a href="/edits/2">(see edit history)</a></span>',
        ),
        post(
          3,
          "spokewise",
          "The gauge says it is past 0.75, so a new chain it is. Thanks, that explains why the new cassette did not help.",
          "",
        ),
      ].join(""),
    );
    const { markdown } = extractMainContent(html, "https://cycles.example/t/41");
    expect(markdown).toContain("worn in with. Edited for a typo.");
    expect(markdown).toContain("the new cassette did not help");
    for (const note of ["Last edited by", "see edit history", "by derailleurdan"])
      expect(markdown).not.toContain(note);
    const off = withPassesOff(
      ["edit-notes"],
      () => extractMainContent(html, "https://cycles.example/t/41").markdown,
    );
    expect(off).toContain("*Last edited by spokewise; Mar 1, 2026 at 9:17 am*");
    expect(off).toContain("[(see edit history)](https://cycles.example/edits/2)");
  });
  it("drops Invision's (edited) mark beside a post's date, keeping a poster's own (edited 1 year ago) aside", () => {
    const { document } = parseHTML(
      `<html><body><article class="cPost"><div class="ipsComment_meta">Posted <time datetime="2024-04-18">April 18, 2024</time> <span class="ipsType_light">(edited)</span></div><div class="ipsType_richText"><p>Prices went up (edited 1 year ago) and I rebooked.</p></div></article></body></html>`,
    );
    const posts = [...document.querySelectorAll("article")] as unknown as DomElement[];
    removeEditNotes(posts);
    const text = document.body.textContent ?? "";
    expect(text).not.toContain("(edited)");
    expect(text).toContain("(edited 1 year ago)");
  });
});
