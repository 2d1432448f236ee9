import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const page = (main: string) =>
  `<!doctype html><html><head><title>Garden design</title><meta property="og:type" content="article"></head><body><header class="site-header"><a href="/">Home</a> <a href="/contact">Contact</a></header><main>${main}</main><footer><p>© 2026 Green plots</p></footer></body></html>`;
/** One page-builder band: wrappers three deep around a heading and its text, as builders print them. */
const band = (n: number, heading: string, text: string) =>
  `<div class="band band-${n}"><div class="container"><div class="row"><div class="col"><h2>${heading}</h2><p>${text}</p></div></div></div></div>`;
const SERVICES: [string, string][] = [
  [
    "Planting plans",
    "We draw a planting plan for every bed, with the soil, the light and the season each plant likes best, so that something flowers in every month of the year.",
  ],
  [
    "Paths and paving",
    "Gravel, brick or stone paths are laid on a compacted base that drains, with edging that keeps the lawn out and the gravel in for many years.",
  ],
  [
    "Ponds",
    "A wildlife pond is dug with a shallow beach at one end, lined, planted with native species and left to fill with rain water over the winter.",
  ],
  [
    "Lawns",
    "Old lawns are scarified, aerated and overseeded in autumn; new ones are turfed on a levelled bed of topsoil and watered for the first month.",
  ],
  [
    "Upkeep",
    "A gardener visits every fortnight from March to October to weed, prune, mow and feed, and sends a short note of what was done after each visit.",
  ],
];
const LONG =
  "Every design starts with a visit: we walk the garden with you, measure it, test the soil in three places, photograph it at morning and at evening light, and ask how you mean to use it, from children's games to quiet evenings, before a single line is drawn.";

describe("pages of like headed sections (page builders)", () => {
  it("reads every section of a page that calls itself an article, not only the one Readability picks", () => {
    const html = page(
      band(0, "Garden design", LONG) + SERVICES.map(([h, t], i) => band(i + 1, h, t)).join(""),
    );
    const { markdown } = extractMainContent(html, "https://plots.example/design");
    expect(markdown).toBe(
      [`## Garden design\n\n${LONG}`, ...SERVICES.map(([h, t]) => `## ${h}\n\n${t}`)].join("\n\n"),
    );
    // Without section-run the page is Readability's article: the one long band, no service.
    const off = withPassesOff(
      ["section-run"],
      () => extractMainContent(html, "https://plots.example/design").markdown,
    );
    expect(off).toBe(LONG);
  });

  it("keeps Readability's article when the run of headed sections stands beside it", () => {
    const box = (n: number, [h, t]: [string, string]) =>
      `<div class="box box-${n}"><div class="inner"><h3>${h}</h3><p>${t}</p></div></div>`;
    const paragraphs = [
      LONG,
      LONG.replace("Every design", "Each soil report"),
      LONG.replace("Every design", "A second visit"),
    ];
    const html = `<!doctype html><html><head><title>Soil</title><meta property="og:type" content="article"></head><body><main><article><h1>Why we test the soil</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</article></main><div class="wrap"><div class="outer"><div class="services">${SERVICES.map((s, i) => box(i, s)).join("")}${SERVICES.map((s, i) => box(i + 5, s)).join("")}</div></div></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://plots.example/soil");
    expect(markdown).toBe(paragraphs.join("\n\n"));
  });
});
