import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const TOPICS = ["Housing", "Family", "Work", "Money", "Health", "School", "Courts", "Benefits", "Travel"];
/** Three made-up form titles for a topic. */
const formsOf = (topic: string) =>
  ["Instructions for", "Petition about", "Order on"].map((kind) => `${kind} ${topic} matters`);
const list = (topic: string) =>
  `<h3>${topic} forms</h3><p>Forms you may need for ${topic.toLowerCase()} questions, with the court's own instructions where it gives them. Fill in every page, sign where the form asks you to, and keep a copy of what you file. The clerk cannot give legal advice, but can tell you which office takes the form and what the fee is.</p><ul>${formsOf(
    topic,
  )
    .map((f) => `<li><a href="/forms/${f.replace(/ /g, "-")}">${f}</a></li>`)
    .join("")}</ul>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Free legal forms</title></head><body><header><a href="/">Home</a></header><main>${body}</main><footer><p>Legal help for people of low income.</p></footer></body></html>`;
const intro = `<h1>Free legal forms</h1><p>These forms are free to download and fill in. Each one comes with instructions; read them before you file, and ask one of our lawyers to look over what you wrote if you are unsure. Forms change when the law does, so download a fresh copy each time.</p>`;

const outro = `<p>Cannot find the form you need? Our lawyers answer questions about forms by phone on weekday mornings, and the court's self-help centre keeps paper copies of most of them.</p>`;

describe("an article made of many link lists", () => {
  it("keeps every list when the article holds eight or more of them (an index of forms)", () => {
    const { markdown } = extractMainContent(
      page(`${intro}${TOPICS.map(list).join("")}${outro}`),
      "https://help.example/forms",
    );
    for (const topic of TOPICS) for (const form of formsOf(topic)) expect(markdown).toContain(`[${form}]`);
  });

  it("still drops the one or two lists of links that close a story", () => {
    const story = Array.from(
      { length: 8 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the story: the council met late on Tuesday and voted to keep the ferry running through the winter, after the harbour master said the new pontoon would hold.</p>`,
    ).join("");
    const related = `<ul><li><a href="/a">Bridge repairs start in May</a></li><li><a href="/b">Harbour fees to rise</a></li><li><a href="/c">New timetable for buses</a></li></ul>`;
    const { markdown } = extractMainContent(
      page(`<h1>Ferry to run all winter</h1>${story}${related}`),
      "https://news.example/ferry",
    );
    expect(markdown).toContain("Paragraph 8 of the story");
    expect(markdown).not.toContain("Harbour fees to rise");
  });

  it("drops a list of related links set in the middle of a story, keeping the paragraphs on both sides", () => {
    const paragraph = (n: number) =>
      `<p>Paragraph ${n} of the story: the council met late on Tuesday and voted to keep the ferry running through the winter, after the harbour master said the new pontoon would hold.</p>`;
    const related = `<ul><li><a href="/a">Bridge repairs start in May</a></li><li><a href="/b">Harbour fees to rise</a></li><li><a href="/c">New timetable for buses</a></li></ul>`;
    const first = [1, 2, 3, 4].map(paragraph).join("");
    const rest = [5, 6, 7, 8].map(paragraph).join("");
    const html = `<!doctype html><html><head><title>Ferry to run all winter</title><meta property="og:type" content="article"></head><body><header><a href="/">Home</a></header><main><article><h1>Ferry to run all winter</h1>${first}${related}${rest}</article></main><footer><p>Harbour news</p></footer></body></html>`;
    const { markdown } = extractMainContent(html, "https://news.example/ferry");
    expect(markdown).toBe(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => paragraph(n).replace(/<\/?p>/g, "")).join("\n\n"),
    );
    // Readability keeps a list of links (it is a list), and no later pass reads the middle of a story.
    const off = withPassesOff(
      ["link-lists"],
      () => extractMainContent(html, "https://news.example/ferry").markdown,
    );
    expect(off).toContain("- [Harbour fees to rise](https://news.example/b)");
  });
});
