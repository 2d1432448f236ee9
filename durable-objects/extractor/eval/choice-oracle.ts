/**
 * What the choice between Readability's article and the page's region is worth, and what it could be
 * worth: every WCXB page is extracted as the pipeline chooses, with the article always (pass
 * `choose-region` off) and with the region always (`choose-article` off). The oracle takes, page by
 * page and with hindsight, the better of the two: no rule of choice can score above it. Training and
 * held-out parts side by side, in aggregate only. Run: `npm run eval:choice`. Env: WCXB_DATA,
 * WCXB_TYPE=a,b (some types).
 */
import { dataDir } from "../../../bench/article-set";
import { isHeldOut } from "../../../bench/site-split";
import { loadWcxb, markdownAsText, scoreWords, WCXB_TYPES } from "../../../bench/wcxb-score";
import { decodeBody } from "../../engine/net/charset";
import { extractMainContent } from "../extract";
import { withPassesOff } from "../passes";

const dir = process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname);
const only = process.env.WCXB_TYPE?.split(",");
const WAYS = { chosen: [], article: ["choose-region"], region: ["choose-article"] } as const;
type Way = keyof typeof WAYS;
interface Row {
  type: string;
  hold: boolean;
  f1: Record<Way, number>;
}

const rows: Row[] = [];
for (const page of loadWcxb(dir)) {
  if (only && !only.includes(page.type)) continue;
  const html = decodeBody(page.bytes, null, true);
  const f1 = {} as Record<Way, number>;
  for (const way of Object.keys(WAYS) as Way[]) {
    let markdown = "";
    try {
      markdown = withPassesOff(WAYS[way], () => extractMainContent(html, page.url).markdown);
    } catch {
      // A page that throws scores 0 that way.
    }
    f1[way] = scoreWords(page.truth, markdownAsText(markdown)).f1;
  }
  rows.push({ type: page.type, hold: isHeldOut(page.url, page.id), f1 });
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const cells = (at: Row[]) => {
  const of = (f: (r: Row) => number) => mean(at.map(f)).toFixed(3);
  const wrong = at.filter((r) => Math.max(r.f1.article, r.f1.region) - r.f1.chosen > 0.02).length;
  return `${of((r) => r.f1.chosen)}  ${of((r) => r.f1.article)}  ${of((r) => r.f1.region)}  ${of((r) => Math.max(r.f1.article, r.f1.region))}  ${String(wrong).padStart(4)}/${String(at.length).padEnd(4)}`;
};
console.log(
  "WCXB: the pipeline's choice, the article always, the region always, and the per-page best of the two",
);
console.log("(wrong: pages where the other candidate scores over 0.02 more)");
console.log(
  "type           training: chosen article region oracle  wrong      held-out: chosen article region oracle  wrong",
);
for (const type of [...WCXB_TYPES, "overall"]) {
  const of = rows.filter((r) => type === "overall" || r.type === type);
  if (!of.length) continue;
  console.log(`${type.padEnd(14)} ${cells(of.filter((r) => !r.hold))}    ${cells(of.filter((r) => r.hold))}`);
}
