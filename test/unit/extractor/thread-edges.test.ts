import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Dust filter for the lathe"}</script>`;
const REPLIES = [
  [
    "tamsin",
    "A furnace filter cut to size works well for the chips, but it clogs within a week if you turn brass.",
  ],
  [
    "okonkwo",
    "I bought a cyclone separator and put it before the shop vacuum; the filter has stayed clean for months.",
  ],
  [
    "vilja",
    "Whatever you choose, wear a mask when you turn resin blanks, the fine dust goes straight through most filters.",
  ],
  [
    "tamsin",
    "Good point on the resin. I also keep a magnet sweep under the bed for the steel chips that the filter misses.",
  ],
];
const reply = ([who, text]: string[], i: number) =>
  `<div class="post reply" id="post-${i + 2}"><div class="who"><a href="/u/${who}">${who}</a></div><div class="body"><p>Posted on May ${i + 2}, 2024.</p><p>${text}</p></div></div>`;
const links = (labels: string[]) =>
  `<ul>${labels.map((l) => `<li><a href="/t/${l.length}">${l}</a></li>`).join("")}</ul>`;
const page = () =>
  `<!doctype html><html><head><title>Dust filter</title>${LD}</head><body><div id="page"><div class="thread">` +
  `<div class="bar-1">${links(["Forums", "Workshop", "Metal lathes"])}</div>` +
  `<div class="bar-2"><a href="/new">Start new topic</a> <a href="/reply">Reply to this topic</a></div>` +
  `<h1>Dust filter for the lathe</h1>` +
  `<div class="opening"><p>Which filter do you use for the dust and chips of a small metal lathe? Mine sits in the garage beside the car and everything ends up covered in a grey film after an afternoon of turning, so I want something that catches the fine dust without costing more than the lathe did.</p><time datetime="2024-05-01">May 1, 2024</time></div>` +
  `<div class="bar-3">4 replies</div>` +
  `<div class="replies">${REPLIES.map(reply).join("")}</div>` +
  `<div class="bar-4">${links(["1", "2", "3", "Next page"])}</div>` +
  `<div class="box-5"><h3>More topics from this board</h3>${links(["Collet chucks compared", "A stand for the lathe", "Cutting oil that does not smell", "Which live centre to buy", "Restoring an old quick-change gearbox"])}</div>` +
  `<div class="bar-6">You must log in to reply here.</div>` +
  `</div></div></body></html>`;

describe("a thread's chrome before its first post and after its last", () => {
  it("drops crumbs, actions, counts, the pager and other topics around the posts", () => {
    const { markdown } = extractMainContent(page(), "https://forum.example/t/dust-filter");
    expect(markdown).toContain("Which filter do you use for the dust and chips");
    expect(markdown).toContain("put it before the shop vacuum");
    expect(markdown).toContain("a magnet sweep under the bed");
    for (const chrome of [
      "Start new topic",
      "4 replies",
      "Next page",
      "Collet chucks compared",
      "You must log in",
    ])
      expect(markdown).not.toContain(chrome);
    const without = withPassesOff(["thread-edges"], () =>
      extractMainContent(page(), "https://forum.example/t/dust-filter"),
    );
    // Without the pass the count and the prompt stay (the lists of links go by other passes too).
    for (const chrome of ["4 replies", "You must log in"]) expect(without.markdown).toContain(chrome);
  });

  it("reads a page of no stated type the same when its posts are dated", () => {
    const html = page().replace(LD, "");
    const { markdown } = extractMainContent(html, "https://forum.example/t/dust-filter");
    expect(markdown).toContain("put it before the shop vacuum");
    expect(markdown).not.toContain("4 replies");
    expect(markdown).not.toContain("You must log in");
    const without = withPassesOff(["thread-edges"], () =>
      extractMainContent(html, "https://forum.example/t/dust-filter"),
    );
    expect(without.markdown).toContain("4 replies");
  });

  it("keeps a list beside the posts that holds more than half their text", () => {
    const long = Array.from(
      { length: 12 },
      (_, i) => `Chapter ${i + 1}: setting up the lathe on a bench of its own`,
    );
    const html = page().replace(
      '<div class="bar-4">',
      `<div class="index">${links(long)}</div><div class="bar-4">`,
    );
    const { markdown } = extractMainContent(html, "https://forum.example/t/dust-filter");
    expect(markdown).toContain("Chapter 12: setting up the lathe");
  });
});
