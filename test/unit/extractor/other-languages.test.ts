import { existsSync } from "node:fs";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { DATA_DIR, loadPages, scorePage } from "../../../bench/article-set";
import { isHeldOut } from "../../../bench/site-split";
import { decodeBody } from "../../../durable-objects/engine/net/charset";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/**
 * The rules read structure (lengths, links, repetition, markup), not words: the words some of
 * them also read are data by language (vocabulary/page-words.ts), and these pages match none.
 */

const f1 = (s: { precision: number; recall: number }) =>
  s.precision + s.recall ? (2 * s.precision * s.recall) / (s.precision + s.recall) : 0;

describe("pages of the article set that are not in English", () => {
  // Training pages only, chosen by the language they state (held-out pages are never looked at one by one).
  const pages = loadPages().flatMap((page) => {
    const html = decodeBody(page.bytes, null, true);
    const lang = /<html[^>]*\slang=["']?([\w-]+)/i.exec(html)?.[1] ?? "en";
    return /^en\b/i.test(lang) || isHeldOut(page.url, page.key) ? [] : [{ ...page, html, lang }];
  });

  it("are read as well as Readability.js reads them or better, each above 0.95", () => {
    expect(existsSync(DATA_DIR)).toBe(true);
    expect(new Set(pages.map((p) => p.lang.slice(0, 2))).size).toBeGreaterThanOrEqual(5);
    for (const page of pages) {
      const ours = f1(scorePage(page.truth, extractMainContent(page.html, page.url).markdown));
      const document = parseHTML(page.html).document;
      const theirs = f1(scorePage(page.truth, new Readability(document).parse()?.textContent ?? ""));
      expect({ lang: page.lang, ours: ours > 0.95, atLeastReadability: ours >= theirs - 0.001 }).toEqual({
        lang: page.lang,
        ours: true,
        atLeastReadability: true,
      });
    }
  }, 120_000);
});

const de = (n: number) =>
  `<p>Absatz ${n}: Der Stadtrat hat am Dienstag beschlossen, die Nachtbuslinien bis zum Hafenviertel zu verlängern, nachdem die Beschäftigten dort zwei Jahre lang Unterschriften gesammelt hatten.</p>`;
const story = (rail: string) =>
  `<!doctype html><html lang="de"><head><title>Nachtbusse</title><meta property="og:type" content="article"></head><body><article><h1>Nachtbusse fahren zum Hafen</h1>${[1, 2, 3, 4, 5].map(de).join("")}${rail}</article></body></html>`;

describe("a German story", () => {
  it("loses the rail of headline links after it, under a heading no word list names", () => {
    const rail = `<h3>Mehr zum Thema</h3><h3><a href="/a">Neue Fahrpläne ab Januar</a></h3><h3><a href="/b">Streik bei den Verkehrsbetrieben</a></h3><h3><a href="/c">Fahrradwege am Kai</a></h3>`;
    const read = (off: string[]) =>
      withPassesOff(off, () => extractMainContent(story(rail), "https://zeitung.example/bus")).markdown;
    expect(read([])).toContain("Absatz 5");
    expect(read([])).not.toContain("Neue Fahrpläne");
    // The run of link lines at the end goes by its shape (trailing-links), not by its heading.
    expect(read(["trailing-links"])).toContain("Neue Fahrpläne");
  });

  it("loses a block the markup labels as related stories, whatever its words", () => {
    const related = `<div class="related-articles"><p>Lesen Sie auch: Fahrradwege am Kai.</p><p>Neue Fahrpläne für den Winter.</p></div>`;
    const read = (off: string[]) =>
      withPassesOff(off, () => extractMainContent(story(related), "https://zeitung.example/bus")).markdown;
    expect(read([])).not.toContain("Lesen Sie auch");
    expect(read(["article-junk"])).toContain("Lesen Sie auch");
  });
});

/** A Japanese forum's post: poster, date, text, and the controls every post repeats (返信 reply, 引用 quote, 通報 report). */
const post = (n: number, who: string, text: string) =>
  `<div id="post${n}" class="postcontainer"><div class="userinfo"><a href="/u/${who}">${who}</a><div>投稿数: ${n * 37}</div></div><div class="postdate">2024年3月${n + 10}日</div><div class="postbody"><p>${text}</p></div><ul class="controls"><li><a href="#r${n}">返信</a></li><li><a href="#q${n}">引用</a></li><li><a href="/report/${n}">この投稿を通報</a></li></ul></div>`;

describe("a Japanese forum thread", () => {
  const thread = `<!doctype html><html lang="ja"><head><title>パン種の匂い</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"パン種の匂い"}</script></head><body><main><h1>パン種の匂い</h1>${[
    post(
      1,
      "komugi",
      "冷蔵庫に移してから一週間、パン種から除光液のような強い匂いがします。どうすればよいでしょうか。",
    ),
    post(2, "raimugi", "その匂いはお腹が空いている合図です。常温で数日間、一日二回えさをあげてください。"),
    post(3, "levain", "同感です。ライ麦の全粒粉を少し混ぜると、酵母が元気になって匂いは消えます。"),
  ].join("")}</main></body></html>`;
  const read = (off: string[]) =>
    withPassesOff(off, () => extractMainContent(thread, "https://forum.example/t/1")).markdown;

  it("keeps every post and drops the controls every post repeats, by repetition, not by their words", () => {
    const markdown = read([]);
    for (const text of ["除光液", "一日二回", "ライ麦"]) expect(markdown).toContain(text);
    expect(markdown).not.toContain("引用");
    expect(markdown).not.toContain("この投稿を通報");
    expect(read(["post-controls"])).toContain("この投稿を通報");
  });
});
