/**
 * The ablation of the extractor: each pass (passes.ts) switched off in turn, on the held-out part of
 * both sets (site-disjoint split), and what that costs. Figures are aggregates only: the mean F1
 * change and how many held-out sites moved by more than 0.005 either way.
 * Run: `npm run eval:ablation`. Env: ABLATION_PART=held|train|all (default held),
 * ABLATION_PASSES=a,b (some passes), ABLATION_OUT=file (the table as JSON), ABLATION_BASE_OFF=a,b
 * (passes off in the base run and in every row too: a pass's worth without another).
 */
import { writeFileSync } from "node:fs";
import { aggregate, dataDir, loadPages, type PageScore, scorePage } from "../../../bench/article-set";
import { isHeldOut, siteOf } from "../../../bench/site-split";
import { loadWcxb, markdownAsText, scoreWords } from "../../../bench/wcxb-score";
import { extractMainContent } from "../extract";
import { PASSES, type PassName, withPassesOff } from "../passes";
import { decodeBody } from "../../engine/net/charset";

const part = process.env.ABLATION_PART ?? "held";
const inPart = (url: string, id: string) => part === "all" || isHeldOut(url, id) === (part === "held");
interface Page {
  /** The passes this page reached in the run with all on (only those can change its output). */
  reached: Set<string>;
  site: string;
  url: string;
  html: string;
  truth: string;
}
const load = (pages: { url: string; bytes: Uint8Array; truth: string }[], ids: string[]): Page[] =>
  pages.flatMap((p, i) =>
    inPart(p.url, ids[i])
      ? [
          {
            reached: new Set<string>(),
            site: siteOf(p.url) || ids[i],
            url: p.url,
            html: decodeBody(p.bytes, null, true),
            truth: p.truth,
          },
        ]
      : [],
  );
const wcxbAll = loadWcxb(process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname));
const wcxb = load(
  wcxbAll,
  wcxbAll.map((p) => p.id),
);
const articlesAll = loadPages(
  process.env.EXTRACTION_DATA ?? dataDir("article-extraction", import.meta.dirname),
);
const articles = load(
  articlesAll,
  articlesAll.map((p) => p.key),
);

const baseOff = process.env.ABLATION_BASE_OFF?.split(",") ?? [];
const markdownOf = (page: Page, off: string[]) => {
  try {
    return withPassesOff(
      [...baseOff, ...off],
      () => extractMainContent(page.html, page.url).markdown,
      off.length ? undefined : page.reached,
    );
  } catch {
    return "";
  }
};
/** Each page's score with `off` switched off; a page that never reached them keeps its `base` score. */
function scoresOf<S>(pages: Page[], off: string[], score: (p: Page, md: string) => S, base?: S[]): S[] {
  return pages.map((p, i) =>
    base && !off.some((n) => p.reached.has(n)) ? base[i] : score(p, markdownOf(p, off)),
  );
}
const wcxbScore = (p: Page, md: string) => scoreWords(p.truth, markdownAsText(md)).f1;
const articleScore = (p: Page, md: string) => scorePage(p.truth, md);
const f1Of = (s: PageScore) =>
  s.precision + s.recall ? (2 * s.precision * s.recall) / (s.precision + s.recall) : 0;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

/** Sites where the pass is worth more than 0.005 (its removal lowers them) and sites where it costs. */
function sitesMoved(pages: Page[], base: number[], without: number[]): [number, number] {
  const helps = new Set<string>();
  const hurts = new Set<string>();
  for (const [i, p] of pages.entries()) {
    if (base[i] - without[i] > 0.005) helps.add(p.site);
    if (without[i] - base[i] > 0.005) hurts.add(p.site);
  }
  return [helps.size, hurts.size];
}

const baseW = scoresOf(wcxb, [], wcxbScore);
const baseA = scoresOf(articles, [], articleScore);
const baseAF1 = aggregate(baseA).f1;
console.log(
  `ablation on the ${part} part: ${wcxb.length} WCXB pages (F1 ${mean(baseW).toFixed(4)}), ${articles.length} article pages (F1 ${baseAF1.toFixed(4)})`,
);
console.log("pass                     stage        WCXB worth  sites +/-   articles worth  sites +/-");
const chosen = (process.env.ABLATION_PASSES?.split(",") ?? Object.keys(PASSES)) as PassName[];
const table: Record<string, unknown>[] = [];
for (const name of chosen) {
  const w = scoresOf(wcxb, [name], wcxbScore, baseW);
  const a = scoresOf(articles, [name], articleScore, baseA);
  const wcxbWorth = mean(baseW) - mean(w);
  const articleWorth = baseAF1 - aggregate(a).f1;
  const [wUp, wDown] = sitesMoved(wcxb, baseW, w);
  const [aUp, aDown] = sitesMoved(articles, baseA.map(f1Of), a.map(f1Of));
  table.push({ name, stage: PASSES[name], wcxbWorth, wUp, wDown, articleWorth, aUp, aDown });
  console.log(
    `${name.padEnd(25)}${PASSES[name].padEnd(13)}${wcxbWorth.toFixed(4).padStart(8)}    ${`${wUp}/${wDown}`.padEnd(10)}${articleWorth.toFixed(4).padStart(8)}        ${aUp}/${aDown}`,
  );
}
if (process.env.ABLATION_OUT) writeFileSync(process.env.ABLATION_OUT, JSON.stringify(table, null, 1));
