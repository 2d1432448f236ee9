import { describe, expect, it } from "vitest";
import {
  checkCitations,
  findCitations,
  type PageRead,
  resultText,
} from "../../../../durable-objects/engine/research/citations";
import { pageShingles } from "../../../../durable-objects/engine/research/text-match";

const page = (url: string | null, final_url: string | null, text: string | null): PageRead => ({
  url,
  final_url,
  hashes: text === null ? null : pageShingles(text).hashes,
});

const ARTICLE =
  "The Danube flows through ten countries, more than any other river in the world, and links the Black Forest with the Black Sea.";

describe("finding citations", () => {
  it("finds Markdown links and bare URLs, trimming sentence punctuation, and skips code blocks", () => {
    const { links } = findCitations(
      "See [the article](https://a.example/x?y=1) and https://b.example/page. Also (https://c.example/wiki/Foo_(bar)).\n```\nhttps://code.example/\n```",
    );
    expect(links.map((l) => l.url)).toEqual([
      "https://a.example/x?y=1",
      "https://b.example/page",
      "https://c.example/wiki/Foo_(bar)",
    ]);
  });

  it("counts only quotations of six words or more, in straight or curly quotation marks", () => {
    const { quotes } = findCitations(
      'He said "five words are too short" and “this one has exactly six words” and "so does this one, six words".',
    );
    expect(quotes.map((q) => q.text)).toEqual([
      "so does this one, six words",
      "this one has exactly six words",
    ]);
  });

  it("collects the strings of a structured result", () => {
    expect(resultText({ a: "one", b: ["two", { c: "three" }], n: 4 })).toBe("one\n\ntwo\n\nthree");
  });
});

describe("checking citations against pages read", () => {
  it("marks a cited page read and its quotation found, ignoring case, punctuation and quote marks", () => {
    const text = `The report says “the Danube flows through TEN countries — more than any other river” ([source](https://rivers.example/danube/)).`;
    const check = checkCitations(text, [page("https://rivers.example/danube", null, ARTICLE)]);
    expect(check.citations).toEqual([
      {
        url: "https://rivers.example/danube/",
        read: true,
        quotes: ["the Danube flows through TEN countries — more than any other river"],
        quotes_found: ["the Danube flows through TEN countries — more than any other river"],
      },
    ]);
    expect(check.unverified).toBe(0);
  });

  it("counts a citation never read and a quotation the page does not contain", () => {
    const text = [
      'The river "flows through eleven countries and three seas" [a](https://rivers.example/danube).',
      "",
      "More at https://never.example/read.",
    ].join("\n");
    const check = checkCitations(text, [page("https://rivers.example/danube", null, ARTICLE)]);
    expect(check.citations.map((c) => [c.url, c.read, c.quotes_found.length])).toEqual([
      ["https://rivers.example/danube", true, 0],
      ["https://never.example/read", false, 0],
    ]);
    expect(check.unverified).toBe(2);
  });

  it("joins a redirect's requested and final URL, and an opened tab with its content read later", () => {
    const reads = [
      page("https://short.example/r", "https://rivers.example/danube", ARTICLE),
      page("https://tab.example/start", "https://tab.example/landing", null),
      page(
        null,
        "https://tab.example/landing",
        "Every marked trail of the valley, with heights and walking times.",
      ),
    ];
    const text =
      '[one](https://short.example/r) [two](https://rivers.example/danube) "Every marked trail of the valley, with heights" [three](https://tab.example/start)';
    const check = checkCitations(text, reads);
    expect(check.citations.map((c) => c.read)).toEqual([true, true, true]);
    expect(check.citations[2].quotes_found).toHaveLength(1);
    expect(check.unverified).toBe(0);
  });

  it("checks a quotation with no citation in its paragraph against every page read", () => {
    const text =
      'Experts agree: "links the Black Forest with the Black Sea". And "a sentence that nobody ever wrote anywhere".';
    const check = checkCitations(text, [page("https://rivers.example/danube", null, ARTICLE)]);
    expect(check.uncited_quotes).toEqual([
      { quote: "links the Black Forest with the Black Sea", found: true },
      { quote: "a sentence that nobody ever wrote anywhere", found: false },
    ]);
    expect(check.unverified).toBe(1);
  });

  it("gives each list item's quotation to that item's link", () => {
    const text = [
      '- [A](https://a.example/): "links the Black Forest with the Black Sea"',
      '- [B](https://b.example/): "a sentence that nobody ever wrote anywhere"',
    ].join("\n");
    const check = checkCitations(text, [
      page("https://a.example", null, ARTICLE),
      page("https://b.example", null, "other text entirely here"),
    ]);
    expect(check.citations.map((c) => c.quotes_found.length)).toEqual([1, 0]);
  });
});
