import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const STORY = [
  "Jane Roe grew up on a farm, and the first thing she planted there was a row of broad beans that her grandmother sowed in November to beat the blackfly.",
  "Autumn sowing gives the plants a head start: they flower weeks before the spring sowings, and by the time the aphids arrive the pods are already set and firm.",
  "Choose a hardy variety, sow the seeds five centimetres deep in a double row, and cover them with fleece on the coldest nights of the winter that follows.",
  "In spring, pinch out the tips once the first pods form, which stops the plants growing taller and takes away the soft growth that the blackfly like best.",
  "Pick the pods young, when the beans inside are no bigger than a thumbnail, and they will be sweet enough to eat raw straight from the garden.",
];

/** A post whose page states its author, with a box about her after the story. */
function post(bio: string) {
  return `<!doctype html><html><head><title>Sowing broad beans in autumn</title><meta name="author" content="Jane Roe"></head><body>
<header><a href="/">The Veg Plot</a></header>
<div class="wrap"><div class="entry"><h1>Sowing broad beans in autumn</h1>
${STORY.map((p) => `<p>${p}</p>`).join("")}
<div class="box-2"><img src="/jane.jpg" alt=""><h4>Jane Roe</h4><p>${bio}</p></div>
</div></div><footer><a href="/about">About</a></footer></body></html>`;
}

const BIO = "Jane Roe is a freelance writer who covers kitchen gardens and small farms for regional papers.";
const run = (html: string, off: string[] = []) =>
  withPassesOff(off, () => extractMainContent(html, "https://veg.example/beans").markdown);

describe("author-bio: the box about the page's stated author after the story", () => {
  it("removes the bio after the story, keeping the story's paragraphs (one opens with her name)", () => {
    const md = run(post(BIO));
    for (const p of STORY) expect(md).toContain(p);
    expect(md).not.toContain("freelance writer who covers");
  });

  it("keeps it with the pass off (it is the pass that removes it)", () => {
    expect(run(post(BIO), ["author-bio"])).toContain("freelance writer who covers");
  });

  it("keeps a paragraph naming another person", () => {
    const other =
      "John Doe is a freelance writer who covers kitchen gardens and small farms for regional papers.";
    expect(run(post(other))).toContain("John Doe is a freelance writer");
  });
});
