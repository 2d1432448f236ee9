import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../../durable-objects/engine/extract/dom-types";
import { removeLetterAvatars } from "../../../../durable-objects/engine/extract/letter-avatars";
import { walkPage } from "../../../../durable-objects/engine/extract/page-walk";

/** A thread's posts whose posters have no picture: the forum draws their initials in a disc (XenForo-like). */
const page = `<!doctype html><html><head><title>Starter smells of acetone</title></head><body><main>
<article class="message"><div class="message-avatar"><a class="avatar avatar--m avatar--default" href="/members/breadhead.1/"><span class="avatar-u1-m" role="img" aria-label="breadhead">B</span></a></div>
<h4 class="message-name"><a class="username" href="/members/breadhead.1/">breadhead</a></h4><div class="bbWrapper">My starter smells of nail polish remover.</div></article>
<article class="message"><div class="message-avatar"><a class="avatar avatar--m" href="/members/crumbly.2/"><span class="Avatar">CR</span></a></div>
<h4 class="message-name"><a class="username" href="/members/crumbly.2/">crumbly</a></h4><div class="bbWrapper">Feed it twice a day at a higher ratio.</div></article>
<ol class="related" aria-busy="true"><li><span class="avatar avatar--xs"><span class="avatar-u0-s">?</span></span></li></ol>
<div class="avatar-credits">Avatars by Jo</div>
</main></body></html>`;

describe("letter avatars", () => {
  const doc = parseHTML(page).document as unknown as DomDocument;
  removeLetterAvatars(walkPage(doc, false).avatars);
  const text = (doc.body?.textContent ?? "").replace(/\s+/g, " ");

  it("drops the initials drawn for a poster with no picture", () => {
    expect(text).not.toMatch(/\bB\b|\bCR\b/);
  });

  it("keeps the posters' names, what they wrote, and avatar blocks of more than initials", () => {
    expect(text).toContain("breadheadMy starter smells of nail polish remover.");
    expect(text).toContain("crumblyFeed it twice a day");
    expect(text).toContain("Avatars by Jo");
  });

  it("leaves a guest's '?' to the passes that read placeholder lists whole", () => {
    expect(text).toContain("?");
  });
});
