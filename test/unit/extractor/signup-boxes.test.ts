import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/** A blog post of no stated type, with a box in its text built around `form`. */
function blogPost(paragraphs: string[], box: string) {
  const half = Math.ceil(paragraphs.length / 2);
  const ps = (from: number, to: number) =>
    paragraphs
      .slice(from, to)
      .map((p) => `<p>${p}</p>`)
      .join("");
  return `<!doctype html><html><head><title>${paragraphs[0].slice(0, 30)}</title></head><body>
<header><a href="/">My garden blog</a></header>
<div class="wrap"><div class="post-body"><h1>${paragraphs[0].slice(0, 30)}</h1>
${ps(0, half)}${box}${ps(half, paragraphs.length)}
</div></div><footer><a href="/about">About</a></footer></body></html>`;
}

const STORY = [
  "Planting garlic in the autumn gives the cloves a long cool spell in the ground, which they need to split into a full bulb by the following summer.",
  "Choose a sunny bed that drains well, break up the soil to a spade's depth and work in a bucket of garden compost for every square metre you plant.",
  "Push each clove in pointed end up, about five centimetres deep and fifteen apart, in rows thirty centimetres from each other so the hoe fits between them.",
  "Keep the bed weeded through the winter and water only in a dry spring, stopping a few weeks before harvest so the skins can firm up.",
  "Lift the bulbs when about half the leaves have turned yellow, then dry them in an airy shed for two weeks before you plait or store them.",
];

const NEWSLETTER = `<div class="box-1"><h3>Join our newsletter</h3><p>Get a new growing guide in your inbox every Friday, free.</p>
<form action="/subscribe" method="post"><input type="email" name="address" placeholder="Your e-mail"><input type="hidden" name="list" value="7"><button type="submit">Sign me up</button></form>
<p>We never share your address. Unsubscribe at any time.</p></div>`;

const NEWSLETTER_DE = `<div class="box-1"><h3>Unser Newsletter</h3><p>Jeden Freitag eine neue Anleitung für den Garten, kostenlos in Ihrem Postfach.</p>
<form action="/abo" method="post"><input type="text" name="n" placeholder="Vorname"><input type="email" name="a" placeholder="E-Mail"><button type="submit">Anmelden</button></form></div>`;

const CONTACT = `<div class="box-1"><h3>Ask the gardener</h3><p>Send your question and we answer the best ones in next week's post.</p>
<form action="/ask" method="post"><input type="text" name="n"><input type="email" name="a"><input type="tel" name="t"><textarea name="q"></textarea><button type="submit">Send</button></form></div>`;

const run = (html: string, off: string[] = []) =>
  withPassesOff(off, () => extractMainContent(html, "https://garden.example/garlic").markdown);

describe("signup-boxes: a box built around an e-mail field is no part of the story", () => {
  it("removes a newsletter box from inside a story, keeping every paragraph", () => {
    const md = run(blogPost(STORY, NEWSLETTER));
    for (const p of STORY) expect(md).toContain(p);
    expect(md).not.toContain("Join our newsletter");
    expect(md).not.toContain("inbox every Friday");
    expect(md).not.toContain("Unsubscribe at any time");
  });

  it("leaves the box with the pass off (it is the pass that removes it)", () => {
    const md = run(blogPost(STORY, NEWSLETTER), ["signup-boxes"]);
    expect(md).toContain("Join our newsletter");
    expect(md).toContain("inbox every Friday");
  });

  it("finds the box by its field, not its words: a German box asking for a first name and an address", () => {
    const md = run(blogPost(STORY, NEWSLETTER_DE));
    expect(md).not.toContain("Unser Newsletter");
    expect(md).not.toContain("Jeden Freitag");
    expect(run(blogPost(STORY, NEWSLETTER_DE), ["signup-boxes"])).toContain("Jeden Freitag");
  });

  it("keeps a form that asks for more than an address (a question, a phone number)", () => {
    const md = run(blogPost(STORY, CONTACT));
    expect(md).toContain("Send your question and we answer the best ones");
  });
});
