import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/** A news page: a short story (about 90 words) in one column with two rails of teaser cards under it. */
function newsPage(
  story: string[],
  headlines: string[],
  rails: [string, string],
  teaser: (h: string) => string,
) {
  const people = ["Anna Price", "Tom Hale", "Rhys Owen", "Mary Stone"];
  const video = (h: string, i: number) =>
    `<div class="clip"><a href="/video/${i}"><img src="/v/${i}.jpg" alt=""><span>2:${10 + i}</span><h4>${h}</h4></a></div>`;
  const card = (h: string, i: number) =>
    `<div class="card"><a href="/news/${i}"><img src="/i/${i}.jpg" alt=""></a><h3><a href="/news/${i}">${h}</a></h3><p><span>${people[i % 4]}</span> <time datetime="2026-06-03T0${i % 10}:00">${i + 1} h</time></p><p>${teaser(h)}</p></div>`;
  return `<!doctype html><html><head><title>${story[0].slice(0, 40)}</title><meta property="og:type" content="article"><meta property="article:published_time" content="2026-06-03T09:00:00Z"></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div class="page"><div class="col">
<h1>${story[0].slice(0, 40)}</h1>
<p class="byline">Anna Price, <time datetime="2026-06-03">3 June 2026</time></p>
<div class="text">${story.map((p) => `<p>${p}</p>`).join("")}</div>
<div class="strip"><h2>${rails[0]}</h2>${headlines.slice(0, 8).map(video).join("")}</div>
<div class="strip"><h2>${rails[1]}</h2>${headlines.map(card).join("")}</div>
</div></div><footer><a href="/about">About</a></footer></body></html>`;
}

const STORY = [
  "The city council voted on Tuesday night to close the Harbour Street bridge to cars from the first of June, after engineers found cracks in two of its supporting piers during a routine inspection last month.",
  "Buses, bicycles and pedestrians will still be allowed to cross while the council looks for money to repair the piers, a job the engineers put at about four million pounds.",
  "Shop owners on both sides of the river said they feared losing trade over the summer months.",
];
const HEADLINES = [
  "Storm brings flooding to coastal villages overnight",
  "Local school wins national robotics prize",
  "Rail strike called off after late-night talks",
  "New library opens its doors after five years of work",
  "Fishing fleet returns with record mackerel catch",
  "Hospital waiting lists fall for the third month",
  "Mayor defends plan for a new ring road",
  "Festival organisers announce this year's line-up",
  "Police appeal for witnesses after town centre crash",
  "Council tax to rise by three per cent next spring",
];
const ENGLISH = newsPage(
  STORY,
  HEADLINES,
  ["Top video", "Don't miss"],
  (h) => `${h}: what it means for the town.`,
);

const GERMAN = newsPage(
  [
    "Der Stadtrat hat am Dienstagabend beschlossen, die Brücke an der Hafenstraße ab dem ersten Juni für Autos zu sperren, nachdem Ingenieure bei einer Prüfung Risse in zwei Pfeilern gefunden hatten.",
    "Busse, Fahrräder und Fußgänger dürfen die Brücke weiter nutzen, während die Stadt nach Geld für die Reparatur sucht, die rund vier Millionen Euro kosten soll.",
    "Händler auf beiden Seiten des Flusses fürchten um ihr Geschäft im Sommer.",
  ],
  [
    "Sturm überflutet Dörfer an der Küste",
    "Schule gewinnt den Robotik-Preis des Landes",
    "Bahnstreik nach nächtlichen Gesprächen abgesagt",
    "Neue Bibliothek öffnet nach fünf Jahren Bauzeit",
    "Fischer kehren mit Rekordfang zurück",
    "Wartelisten im Krankenhaus werden kürzer",
    "Bürgermeister verteidigt Pläne für neue Ringstraße",
    "Festival stellt das Programm des Jahres vor",
    "Polizei sucht Zeugen nach Unfall in der Innenstadt",
    "Grundsteuer steigt im Frühjahr um drei Prozent",
  ],
  ["Videos", "Auch interessant"],
  (h) => `${h}: was das für die Stadt bedeutet.`,
);

describe("link rails beside a short story", () => {
  it("keeps a 90-word story and drops the rails of video and headline cards under it", () => {
    const out = extractMainContent(ENGLISH, "https://gazette.example/news/bridge").markdown;
    expect(out).toBe(STORY.join("\n\n"));
    // With the pass off, the headline rail comes back with its teasers.
    const off = withPassesOff(["story-rails"], () =>
      extractMainContent(ENGLISH, "https://gazette.example/news/bridge"),
    ).markdown;
    expect(off).toContain("Rail strike called off after late-night talks");
    expect(off).toContain(STORY[2]);
  });

  it("drops the rails by their shape on a German page too", () => {
    const out = extractMainContent(GERMAN, "https://zeitung.example/stadt/bruecke").markdown;
    expect(out).toContain("Händler auf beiden Seiten des Flusses");
    expect(out).not.toContain("Bahnstreik");
    expect(out).not.toContain("Auch interessant");
  });

  it("keeps a roundup's linked items, each longer than a paragraph of its introduction", () => {
    const item = (n: number) =>
      `<div class="pick"><h3><a href="/p/${n}">Kettle number ${n}</a></h3><p>Kettle ${n} boils a litre in under three minutes, keeps its handle cool and pours without dribbling; its filter lifts out for cleaning and its base sits flat on any worktop.</p><p>It costs about ${n}0 pounds and comes in four colours, with a two-year guarantee.</p></div>`;
    const html = `<!doctype html><html><head><title>The best kettles</title><meta property="og:type" content="article"><meta property="article:published_time" content="2026-06-03T09:00:00Z"></head><body><article><h1>The best kettles</h1><p>We boiled water in twenty kettles over a month, timing each one and checking how hot its handle got after ten boils in a row.</p><p>These five were the quickest and the easiest to pour, and none of them leaked or rattled on its base during the month of testing.</p><div class="picks">${[1, 2, 3, 4, 5].map(item).join("")}</div></article></body></html>`;
    const out = extractMainContent(html, "https://kitchen.example/best-kettles").markdown;
    for (const n of [1, 2, 3, 4, 5]) expect(out).toContain(`Kettle ${n} boils a litre`);
  });
});
