import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { withPassesOff } from "../../../../durable-objects/engine/extract/passes";

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

describe("link rails beside a short story on a page that states it is a story", () => {
  it("go, with their headings, and the story stays: in English and German", () => {
    for (const [lang, story, rails, railWord, storyWord] of [
      ["en", EN, EN_RAILS, "market hall", "south terminal"],
      ["de", DE, DE_RAILS, "Markthalle", "Südterminal"],
    ] as const) {
      const html = storyPage(lang, "Pier", [...story], rails);
      const { markdown } = extractMainContent(html, "https://news.example/pier");
      expect(markdown, lang).toContain(storyWord);
      expect(markdown, lang).not.toContain(railWord);
      expect(markdown.length, lang).toBeLessThan(story.join("\n\n").length + 50);
    }
  });

  it("come back as the page with stated-story switched off", () => {
    // Without the story its data states, the rails read as the page's index.
    const en = storyPage("en", "Pier", EN, EN_RAILS);
    const off = withPassesOff(["stated-story"], () => extractMainContent(en, "https://news.example/pier"));
    expect(off.markdown).toContain("market hall");
  });
});
