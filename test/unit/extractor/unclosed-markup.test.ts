import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { readJsonLd } from "../../../durable-objects/extractor/metadata";
import { dropHeavyAttrs, RAW_JUNK, rawJunkEnd } from "../../../durable-objects/extractor/parse-page";
import { replaceBlocks } from "../../../durable-objects/extractor/raw-blocks";

/**
 * Never-content blocks are cut from the HTML text before parsing. The regexes that found them scanned
 * from every opener to the end of the text when nothing closed it, so a page of thousands of openers
 * never closed cost time quadratic in its size (cubic for tags with `data-` attributes never closed by
 * `>`). The scanner that replaced them finds exactly what they found, here compared with copies of them
 * on tricky and random markup; `bench/unclosed-markup.ts` shows its time grows linearly.
 */
const OLD_RAW_JUNK =
  /<(script|style|svg|noscript|template|nav|aside|footer|select|button|iframe|canvas|object|video|audio)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<(?:link|input)\b[^>]*>/gi;
const HEAVY_ATTR = /\s(?:data-[\w.:-]+|srcset|sizes)\s*=\s*(?:"[^"]*"|'[^']*')/gi;
const OLD_HEAVY_ATTR_TAG = /<[a-z][\w-]*(?:\s[^>]*?)?\s(?:data-[\w.:-]+|srcset|sizes)\s*=[^>]*>/gi;
const OLD_LD_SCRIPT =
  /<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** Each block as where it starts, its captured tag name and its length. */
const oldBlocks = (s: string) =>
  s.replace(OLD_RAW_JUNK, (block, tag: string | undefined, at: number) => `[${tag}@${at}:${block.length}]`);
const newBlocks = (s: string) =>
  replaceBlocks(s, RAW_JUNK, rawJunkEnd, (block, m) => `[${m[1]}@${m.index}:${block.length}]`);
const oldHeavy = (s: string) => s.replace(OLD_HEAVY_ATTR_TAG, (tag) => tag.replace(HEAVY_ATTR, ""));
/** The old readJsonLd on flat nodes: each block's JSON, unparseable ones skipped. */
const oldLd = (s: string) =>
  [...s.matchAll(OLD_LD_SCRIPT)].flatMap((m) => {
    try {
      return [JSON.parse(m[1].trim().replace(/^<!\[CDATA\[|\]\]>$/g, ""))];
    } catch {
      return [];
    }
  });

const TRICKY = [
  "",
  "just text, no tags",
  "<script>a</script>b<script>c</SCRIPT >d",
  "<nav><nav>x</nav>y</nav>z",
  "<script>1<style>2</style>3<script>4</script>5",
  "<script>unclosed <style>s</style> <script>closed</script> <nav>open",
  "<scripts>x</scripts><script>y</script><script-x>z</script>",
  "<nav_x>a</nav_x><navigation>b</nav>",
  "<script>a<!-- b</script>c-->d",
  "<!-- a <script> -->b</script><!-->c--><!---->d<!--->e-->",
  '<script title="a>b">x</script>',
  '<button title="<b>">q</button>',
  '<link rel="x"><input type=email name=e><input type="hidden" value=1><input',
  "<link <input>",
  "<nav <nav>x</nav>",
  "<template><template></template></template>",
  "<svg><script>x</svg></script>",
  "</nav><nav>a</nav >b</nav\n>",
  "<script>x</ script></script\t\n>",
  "<video>x</video><audio src=a><object><iframe></object></iframe>",
  '<BUTTON aria-expanded="true"><h3>Q</h3></Button\t>',
  "<!-- unclosed <script>x</script>",
  "<script>never <!-- closed",
  '<img data-src="a" srcset="b 1x, c 2x" sizes="100vw" alt="x">',
  '<div data-x=\'1\' data-y="2"><a\tdata-x="1"><a data-x = "1"><a data-x=1>',
  '<img alt="a>b" data-x="1"><imgdata-x="1"><p>text data-x="1"</p>',
  '<base <img data-a="1"><x-card data-v-123=""><svg:path data-x="1">',
  '<A DATA-X="1" SRCSET=\'a\'>< img data-x="1"><img data-x="1"',
  '<script type="application/ld+json">{"n":1}</script><script type=application/ld+json>{"n":2}</SCRIPT >',
  '<script type="application/ld+json">{"n":3}<script type="application/ld+json">{"n":4}</script>',
  '<script id=a type="text/json">{"n":5}</script><script TYPE = \'Application/LD+JSON\' >{"n":6}</script>',
  '<script data-type="application/ld+json">{"n":7}</script><script type="application/ld+json"><![CDATA[{"n":8}]]></script>',
  '<script>x</script><script type="application/ld+json" title="a>b">{"n":9}</script><script type="application/ld+json"',
];

/** Random markup from the pieces the patterns turn on (seeded: the same strings every run). */
function randomMarkup(count: number): string[] {
  const pieces = [
    "<script>",
    "</script>",
    "</SCRIPT >",
    "<nav>",
    "</nav>",
    "</nav\t>",
    "<!--",
    "-->",
    "<link ",
    "<input type=email",
    ">",
    "x",
    " ",
    '"',
    "'",
    "<button>",
    "</button>",
    "<h3>",
    "<scripts>",
    ' data-x="1"',
    " srcset='a'",
    "<img",
    "<noscript>",
    "</noscript>",
    '<script type="application/ld+json">',
    '{"a":1}',
    "<!---->",
    "<",
    "<a",
    "=",
  ];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(30) }, () => pieces[next(pieces.length)]).join(""),
  );
}

describe("never-content blocks found as the old regexes found them", () => {
  it("cuts the same blocks (scripts, comments, navigation, single tags) from tricky markup", () => {
    for (const s of TRICKY) expect(newBlocks(s), s).toBe(oldBlocks(s));
  });

  it("cuts the same attributes no step reads from the same tags", () => {
    for (const s of TRICKY) expect(dropHeavyAttrs(s), s).toBe(oldHeavy(s));
  });

  it("reads the same JSON-LD blocks", () => {
    for (const s of TRICKY) expect(readJsonLd(s), s).toEqual(oldLd(s));
  });

  it("agrees with the old regexes on random markup", () => {
    for (const s of randomMarkup(3000)) {
      expect(newBlocks(s), s).toBe(oldBlocks(s));
      expect(dropHeavyAttrs(s), s).toBe(oldHeavy(s));
      expect(readJsonLd(s), s).toEqual(oldLd(s));
    }
  });
});

const STORY = [1, 2, 3].map(
  (n) =>
    `Paragraph ${n}: the harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal.`,
);
const N = 20_000;
const page = (opener: string) =>
  `<!doctype html><html><head><title>Night buses</title></head><body><article>${STORY.map((p) => `<p>${p}</p>`).join("")}</article>${opener.repeat(N)}`;
const read = (opener: string) => extractMainContent(page(opener), "https://news.example/buses").markdown;

describe("a page followed by 20,000 openers never closed", () => {
  it.each(["<!-- ", "<button>x ", "<template>", "<base ", "<input ", '<img data-a="1" '])(
    "gives the story (%s)",
    (opener) => {
      expect(read(opener)).toBe(STORY.join("\n\n"));
    },
  );

  it("gives the story, then the text the navigation left open holds", () => {
    const markdown = read("<nav>x ");
    expect(markdown.startsWith(`${STORY.join("\n\n")}\n\n`)).toBe(true);
    expect(markdown.slice(STORY.join("\n\n").length).replace(/[x\s]/g, "")).toBe("");
  });

  // linkedom read the rest of the page after a `<script>` never closed as text, which outweighed the
  // story; a browser reads it as the script's and shows the story alone, as web_fetch now does. A
  // `<noscript>` too: a browser running scripts reads what follows it as its text, never shown.
  it.each(["<script>", '<script type="application/ld+json">', "<style>", "<noscript>x "])(
    "gives the story alone after %s, as a browser shows it",
    (opener) => {
      expect(read(opener)).toBe(STORY.join("\n\n"));
    },
  );
});
