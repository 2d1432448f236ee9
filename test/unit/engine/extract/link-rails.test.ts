import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { removeLinkRails } from "../../../../durable-objects/engine/extract/link-rails";
import { withPassesOff } from "../../../../durable-objects/engine/extract/passes";
import { afterPass } from "./fragment";

/** A rail of `n` headline links, each with a byline and a date, under a heading. */
const rail = (title: string, n: number, headline: (i: number) => string, by: string) =>
  `<section><h2>${title}</h2><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li><a href="/n/${title.length}-${i}">${headline(i)}</a><p>${by} ${i}</p><time>${i + 1}.5.2024</time></li>`,
  ).join("")}</ul></section>`;

/** A short story (two paragraphs) beside two long rails, on a page whose JSON-LD states a NewsArticle. */
function storyPage(lang: string, title: string, story: string[], rails: string): string {
  return `<!doctype html><html lang="${lang}"><head><title>${title}</title><meta property="og:type" content="article"><script type="application/ld+json">{"@type":"NewsArticle","headline":"${title}"}</script></head><body><div class="page"><div class="main"><h1>${title}</h1><div class="body">${story.map((p) => `<p>${p}</p>`).join("")}</div>${rails}</div></div></body></html>`;
}

const EN = [
  "The harbour authority said on Friday that the north pier will close for repairs from next month, after an inspection found cracks in two of its supports.",
  "Ferries will use the south terminal while the work goes on, and the authority expects the pier to reopen in the spring.",
];
const EN_RAILS =
  rail(
    "Top video",
    12,
    (i) => `Council weighs new plan for the old market hall number ${i} as traders push back`,
    "By Jane Writer",
  ) +
  rail(
    "Don't miss",
    10,
    (i) => `Rail line to the airport delayed again, operator number ${i} says`,
    "By Sam Reporter",
  );
const DE = [
  "Die Hafenbehörde teilte am Freitag mit, dass der Nordpier ab dem kommenden Monat für Reparaturen geschlossen wird, nachdem bei einer Prüfung Risse in zwei Stützen gefunden wurden.",
  "Die Fähren legen während der Arbeiten am Südterminal an; die Behörde rechnet damit, dass der Pier im Frühjahr wieder öffnet.",
];
const DE_RAILS =
  rail(
    "Meistgesehen",
    12,
    (i) => `Stadtrat berät über neuen Plan für die alte Markthalle Nummer ${i}`,
    "Von Jana Schreiber",
  ) +
  rail(
    "Nicht verpassen",
    10,
    (i) => `Bahnstrecke zum Flughafen verzögert sich erneut, sagt Betreiber ${i}`,
    "Von Sam Reporter",
  );
const JA = [
  "港湾局は金曜日、北桟橋を来月から修理のため閉鎖すると発表した。点検で支柱二本にひびが見つかったためで、工事は数か月かかる見込みだという。",
  "工事の間、フェリーは南ターミナルを使う。港湾局は春には桟橋を再開できるとしている。利用者には時刻表の確認を呼びかけている。",
];
const JA_RAILS =
  rail("注目の動画", 12, (i) => `市議会、旧市場ホールの新計画を審議 商店主らは反発 第${i}報`, "記者") +
  rail("見逃せない", 10, (i) => `空港への鉄道線、再び開業延期 運営会社${i}が発表`, "記者");

describe("link rails beside a short story", () => {
  it("go, with their headings, and the story stays: told by structure, in English, German and Japanese", () => {
    for (const [lang, story, rails, railWord, storyWord] of [
      ["en", EN, EN_RAILS, "market hall", "south terminal"],
      ["de", DE, DE_RAILS, "Markthalle", "Südterminal"],
      ["ja", JA, JA_RAILS, "旧市場ホール", "南ターミナル"],
    ] as const) {
      const html = storyPage(lang, "Pier", [...story], rails);
      const { markdown } = extractMainContent(html, "https://news.example/pier");
      expect(markdown, lang).toContain(storyWord);
      expect(markdown, lang).not.toContain(railWord);
      expect(markdown.length, lang).toBeLessThan(story.join("\n\n").length + 50);
    }
  });

  it("come back as the page with the passes switched off (each is needed)", () => {
    // Without the story its data states, the rails read as the page's index.
    const en = storyPage("en", "Pier", EN, EN_RAILS);
    const off = withPassesOff(["stated-story"], () => extractMainContent(en, "https://news.example/pier"));
    expect(off.markdown).toContain("market hall");
    // A story too short for Readability is read from its region, rails and all.
    const ja = storyPage("ja", "Pier", JA, JA_RAILS);
    const kept = withPassesOff(["link-rails"], () => extractMainContent(ja, "https://news.example/pier"));
    expect(kept.markdown).toContain("旧市場ホール");
  });

  it("stay when there is no story beside them, and a list of prose items is no rail", () => {
    const onlyRails = EN_RAILS;
    expect(afterPass(onlyRails, removeLinkRails)).toBe(onlyRails);
    const prose = `<p>${EN[0]}</p><p>${EN[1]}</p><ul>${EN.concat(EN)
      .map((t) => `<li>${t} <a href="/x">source</a></li>`)
      .join("")}</ul>`;
    expect(afterPass(prose, removeLinkRails)).toBe(prose);
  });
});
