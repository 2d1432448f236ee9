/**
 * Fast loop for tuning the extractor in Node (linkedom runs there too): scores every WCXB page, per
 * type, on the training part and the held-out part of the site-disjoint split (bench/site-split.ts),
 * side by side with Readability.js on the same pages. Held-out pages are reported in aggregate only.
 * Run: `npm run eval:wcxb`.
 * Env: WCXB_DATA (split dir), WCXB_OFF=a,b (switch extractor passes off by name, passes.ts),
 * WCXB_TYPE=a,b (some types), WCXB_READABILITY=0 (skip Readability.js). On training pages only:
 * WCXB_DUMP=dir (writes each page's output and truth), WCXB_WORST=n (lists the n worst),
 * WCXB_SCORES=file (each page's F1 as JSON), WCXB_BASE=file (a SCORES file of an earlier run:
 * lists the pages that moved most).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Readability } from "readability-stock";
import { parseHTML } from "linkedom";
import { dataDir } from "../../../bench/article-set";
import { isHeldOut } from "../../../bench/site-split";
import {
  loadWcxb,
  markdownAsText,
  RS_TRAFILATURA,
  scoreWords,
  snippetRates,
  WCXB_TYPES,
} from "../../../bench/wcxb-score";
import { extractMainContent } from "../extract";
import { withPassesOff } from "../passes";
import { decodeBody } from "../../engine/net/charset";

const dir = process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname);
const dump = process.env.WCXB_DUMP;
const only = process.env.WCXB_TYPE;
const off = (process.env.WCXB_OFF ?? "").split(",").filter(Boolean);
const withReadability = process.env.WCXB_READABILITY !== "0";
if (dump) mkdirSync(dump, { recursive: true });
interface Row {
  id: string;
  type: string;
  hold: boolean;
  f1: number;
  p: number;
  r: number;
  ms: number;
  rd: number;
  /** Shares of the page's `with` snippets found and of its `without` (boilerplate) snippets kept. */
  kept: number;
  junk: number;
  rdKept: number;
  rdJunk: number;
}
const rows: Row[] = [];
for (const page of loadWcxb(dir)) {
  if (only && !only.split(",").includes(page.type)) continue;
  const html = decodeBody(page.bytes, null, true);
  const start = performance.now();
  let title = "";
  let markdown = "";
  try {
    ({ title, markdown } = withPassesOff(off, () => extractMainContent(html, page.url)));
  } catch (err) {
    console.log(page.type, "threw", (err as Error).message);
  }
  const ms = performance.now() - start;
  const text = markdownAsText(markdown);
  const s = scoreWords(page.truth, text);
  const { kept, junk } = snippetRates(text, page.snippets);
  const theirs = withReadability ? readabilityText(html) : "";
  const rd = withReadability ? scoreWords(page.truth, theirs).f1 : Number.NaN;
  const { kept: rdKept, junk: rdJunk } = withReadability
    ? snippetRates(theirs, page.snippets)
    : { kept: Number.NaN, junk: Number.NaN };
  const hold = isHeldOut(page.url, page.id);
  rows.push({ id: page.id, type: page.type, hold, ...s, ms, rd, kept, junk, rdKept, rdJunk });
  if (dump && !hold) {
    writeFileSync(`${dump}/${page.id}.out.md`, `# ${title}\n\n${markdown}`);
    writeFileSync(`${dump}/${page.id}.truth.txt`, page.truth);
  }
}

/** Readability.js as published, with its defaults, on the same decoded page. */
function readabilityText(html: string): string {
  try {
    return new Readability(parseHTML(html).document).parse()?.textContent ?? "";
  } catch {
    return "";
  }
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const fmt = (v: number) => (Number.isNaN(v) ? "  -  " : v.toFixed(3));
console.log(`site-disjoint split${off.length ? `; passes off: ${off.join(", ")}` : ""}`);
console.log("type           train held  ours: train  held   all    readability: train  held   rs-traf");
for (const type of [...WCXB_TYPES, "overall"]) {
  const of = rows.filter((r) => type === "overall" || r.type === type);
  if (!of.length) continue;
  const train = of.filter((r) => !r.hold);
  const hold = of.filter((r) => r.hold);
  const f = (at: Row[], key: "f1" | "rd") => fmt(mean(at.map((r) => r[key])));
  console.log(
    `${type.padEnd(14)} ${String(train.length).padEnd(5)} ${String(hold.length).padEnd(5)} ${f(train, "f1")}        ${f(hold, "f1")}  ${f(of, "f1")}  ${f(train, "rd")}               ${f(hold, "rd")}  ${RS_TRAFILATURA[type]}`,
  );
}
const four = (at: Row[]) => mean(at.map((r) => r.f1)).toFixed(4);
console.log(
  `overall to 4 places: train ${four(rows.filter((r) => !r.hold))}  held ${four(rows.filter((r) => r.hold))}  all ${four(rows)}`,
);
// evaluate.py's snippet rates, beside F1 (a page listing no boilerplate snippet counts as 1 there too).
type Rate = "kept" | "junk" | "rdKept" | "rdJunk";
const share = (at: Row[], key: Rate) => `${(100 * mean(at.map((r) => r[key]))).toFixed(1)}%`;
const [trained, held] = [rows.filter((r) => !r.hold), rows.filter((r) => r.hold)];
const rates = (kept: Rate, junk: Rate) =>
  `with ${share(trained, kept)} / ${share(held, kept)}, without ${share(trained, junk)} / ${share(held, junk)}`;
console.log(`snippets (train / held; without: lower is better): ours ${rates("kept", "junk")}`);
if (withReadability)
  console.log(`                                  readability ${rates("rdKept", "rdJunk")}`);
const times = rows.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `ours: median ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms`,
);
const train = rows.filter((r) => !r.hold);
if (process.env.WCXB_SCORES)
  writeFileSync(process.env.WCXB_SCORES, JSON.stringify(Object.fromEntries(train.map((r) => [r.id, r.f1]))));
if (process.env.WCXB_BASE) {
  const base = JSON.parse(readFileSync(process.env.WCXB_BASE, "utf8")) as Record<string, number>;
  const moved = train.filter((r) => r.id in base).map((r) => ({ ...r, d: r.f1 - base[r.id] }));
  const up = moved.filter((r) => r.d > 0.005).length;
  const down = moved.filter((r) => r.d < -0.005);
  console.log(`vs base (training pages): ${up} pages up, ${down.length} down (by more than 0.005)`);
  for (const r of down.sort((a, b) => a.d - b.d).slice(0, 15))
    console.log(`  down ${r.id} ${r.type} ${base[r.id].toFixed(2)} -> ${r.f1.toFixed(2)}`);
}
if (process.env.WCXB_WORST) {
  for (const r of [...train].sort((a, b) => a.f1 - b.f1).slice(0, Number(process.env.WCXB_WORST)))
    console.log(r.id, r.type, r.f1.toFixed(2), `P${r.p.toFixed(2)} R${r.r.toFixed(2)}`);
}
