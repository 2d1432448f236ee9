/**
 * Fast loop in Node: the article-extraction set with its 4-shingle metric (the bench's scorer), on
 * the training and held-out parts of the site-disjoint split (bench/site-split.ts), side by side with
 * Readability.js. Held-out pages are reported in aggregate only; the worst pages listed are training
 * pages. Run: `npm run eval:articles`. Env: EXTRACTION_DATA (set dir), ARTICLES_OFF=a,b (switch
 * extractor passes off by name, passes.ts).
 */
import { Readability } from "readability-stock";
import { parseHTML } from "linkedom";
import { aggregate, dataDir, loadPages, type PageScore, scorePage } from "../../../bench/article-set";
import { isHeldOut } from "../../../bench/site-split";
import { extractMainContent } from "../extract";
import { withPassesOff } from "../passes";
import { decodeBody } from "../../engine/net/charset";

const dir = process.env.EXTRACTION_DATA ?? dataDir("article-extraction", import.meta.dirname);
const off = (process.env.ARTICLES_OFF ?? "").split(",").filter(Boolean);
const rows: { key: string; hold: boolean; ours: PageScore; rd: PageScore }[] = [];
for (const page of loadPages(dir)) {
  const html = decodeBody(page.bytes, null, true);
  const markdown = withPassesOff(off, () => extractMainContent(html, page.url).markdown);
  let text = "";
  try {
    text = new Readability(parseHTML(html).document).parse()?.textContent ?? "";
  } catch {
    // Readability that throws scores 0 on the page.
  }
  const hold = isHeldOut(page.url, page.key);
  rows.push({ key: page.key, hold, ours: scorePage(page.truth, markdown), rd: scorePage(page.truth, text) });
}
const part = (label: string, at: typeof rows) => {
  const o = aggregate(at.map((r) => r.ours));
  const r = aggregate(at.map((x) => x.rd));
  console.log(
    `${label.padEnd(9)} ${String(at.length).padEnd(4)} ours P ${o.precision.toFixed(3)} R ${o.recall.toFixed(3)} F1 ${o.f1.toFixed(3)}   readability F1 ${r.f1.toFixed(3)}`,
  );
};
console.log(`articles, site-disjoint split${off.length ? `; passes off: ${off.join(", ")}` : ""}`);
part("all", rows);
part(
  "train",
  rows.filter((r) => !r.hold),
);
part(
  "held-out",
  rows.filter((r) => r.hold),
);
console.log(
  `worst training pages: ${rows
    .filter((r) => !r.hold)
    .sort((a, b) => a.ours.precision + a.ours.recall - b.ours.precision - b.ours.recall)
    .slice(0, 6)
    .map((w) => `${w.key.slice(0, 8)} P${w.ours.precision.toFixed(2)} R${w.ours.recall.toFixed(2)}`)
    .join("; ")}`,
);
