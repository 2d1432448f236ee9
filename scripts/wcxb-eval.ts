/**
 * Fast loop for tuning the extractor in Node (linkedom runs there too): scores every WCXB page,
 * per type, on a development part and a held-out part (ids whose number is divisible by 5).
 * Run: `npm run eval:wcxb`.
 * Env: WCXB_DATA (split dir), WCXB_DUMP=dir (writes each page's output and truth), WCXB_TYPE=a,b
 * (some types), WCXB_WORST=n (lists the n worst pages), WCXB_SCORES=file (writes each page's F1 as
 * JSON), WCXB_BASE=file (a SCORES file of an earlier run: lists the pages that moved most).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadWcxb, markdownAsText, RS_TRAFILATURA, scoreWords, WCXB_TYPES } from "../bench/wcxb-score";
import { extractMainContent } from "../durable-objects/engine/extract/extract";
import { decodeBody } from "../durable-objects/engine/net/charset";

const dir = process.env.WCXB_DATA ?? join(import.meta.dirname, "../../shared/data/wcxb-dev");
const dump = process.env.WCXB_DUMP;
const only = process.env.WCXB_TYPE;
if (dump) mkdirSync(dump, { recursive: true });
const rows: { id: string; type: string; hold: boolean; f1: number; p: number; r: number; ms: number }[] = [];
for (const page of loadWcxb(dir)) {
  if (only && !only.split(",").includes(page.type)) continue;
  const html = decodeBody(page.bytes, null, true);
  const start = performance.now();
  let title = "";
  let markdown = "";
  try {
    ({ title, markdown } = extractMainContent(html, page.url));
  } catch (err) {
    console.log(page.id, page.type, "threw", (err as Error).message);
  }
  const ms = performance.now() - start;
  const s = scoreWords(page.truth, markdownAsText(markdown));
  rows.push({ id: page.id, type: page.type, hold: Number(page.id) % 5 === 0, ...s, ms });
  if (dump) {
    writeFileSync(`${dump}/${page.id}.out.md`, `# ${title}\n\n${markdown}`);
    writeFileSync(`${dump}/${page.id}.truth.txt`, page.truth);
  }
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const fmt = (v: number) => (Number.isNaN(v) ? "  -  " : v.toFixed(3));
console.log("type           n    dev F1  hold F1  all F1  P      R      rs-traf");
for (const type of [...WCXB_TYPES, "overall"]) {
  const of = rows.filter((r) => type === "overall" || r.type === type);
  if (!of.length) continue;
  const dev = of.filter((r) => !r.hold).map((r) => r.f1);
  const hold = of.filter((r) => r.hold).map((r) => r.f1);
  console.log(
    `${type.padEnd(14)} ${String(of.length).padEnd(4)} ${fmt(mean(dev))}   ${fmt(mean(hold))}    ${fmt(mean(of.map((r) => r.f1)))}   ${fmt(mean(of.map((r) => r.p)))}  ${fmt(mean(of.map((r) => r.r)))}  ${RS_TRAFILATURA[type]}`,
  );
}
const times = rows.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `median ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms`,
);
if (process.env.WCXB_SCORES)
  writeFileSync(process.env.WCXB_SCORES, JSON.stringify(Object.fromEntries(rows.map((r) => [r.id, r.f1]))));
if (process.env.WCXB_BASE) {
  const base = JSON.parse(readFileSync(process.env.WCXB_BASE, "utf8")) as Record<string, number>;
  const moved = rows.filter((r) => r.id in base).map((r) => ({ ...r, d: r.f1 - base[r.id] }));
  const up = moved.filter((r) => r.d > 0.005).length;
  const down = moved.filter((r) => r.d < -0.005);
  console.log(`vs base: ${up} pages up, ${down.length} down (by more than 0.005)`);
  for (const r of down.sort((a, b) => a.d - b.d).slice(0, 15))
    console.log(`  down ${r.id} ${r.type} ${base[r.id].toFixed(2)} -> ${r.f1.toFixed(2)}`);
}
if (process.env.WCXB_WORST) {
  for (const r of [...rows].sort((a, b) => a.f1 - b.f1).slice(0, Number(process.env.WCXB_WORST)))
    console.log(r.id, r.type, r.f1.toFixed(2), `P${r.p.toFixed(2)} R${r.r.toFixed(2)}`);
}
