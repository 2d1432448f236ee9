/**
 * What dropping blocks inside the chosen content could be worth (session 26): every WCXB page is
 * extracted as the pipeline does, its Markdown split into blocks (paragraphs, headings, each list
 * item and table row, each fenced code block whole), and blocks are dropped with hindsight two
 * ways: the shingle rule (a block goes when fewer than half its word 4-shingles, n-grams for a
 * shorter block, are in the reference) and greedy (one block at a time while the page's F1 rises).
 * No rule can prune above these. Training and held-out parts side by side, in aggregate only.
 * Run: `esbuild durable-objects/extractor/eval/block-oracle.ts --bundle --platform=node
 * --format=esm --outfile=scripts/.block-oracle.mjs && node scripts/.block-oracle.mjs`.
 * Env: WCXB_DATA, WCXB_TYPE=a,b (some types).
 */
import { dataDir } from "../../../bench/article-set";
import { isHeldOut } from "../../../bench/site-split";
import { loadWcxb, markdownAsText, scoreWords, WCXB_TYPES } from "../../../bench/wcxb-score";
import { decodeBody } from "../../engine/net/charset";
import { extractMainContent } from "../extract";

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;
const wordsOf = (text: string) =>
  text
    .replace(/\]\([^)]*\)/g, "]")
    .toLowerCase()
    .match(WORD) ?? [];
const FENCE = /^\s*(```|~~~)/;
const ITEM = /^\s*([-*+]|\d+[.)])\s|^\s*\|/;

/** The Markdown's blocks, each as its lines. */
function blocksOf(markdown: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | null = null;
  let fence = false;
  const open = (line: string) => {
    const block = [line];
    out.push(block);
    return block;
  };
  for (const line of markdown.split("\n")) {
    if (fence) {
      cur?.push(line);
      fence = !FENCE.test(line);
    } else if (FENCE.test(line)) {
      cur = open(line);
      fence = true;
    } else if (!line.trim()) cur = null;
    else if (cur && !ITEM.test(line) && !/^\s*#/.test(line) && !/^\s*#/.test(cur[0])) cur.push(line);
    else cur = open(line);
  }
  return out;
}

const bagOf = (words: string[]) => {
  const bag = new Map<string, number>();
  for (const w of words) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
};
const scoreOf = (truth: string, blocks: string[][]) =>
  scoreWords(truth, markdownAsText(blocks.map((b) => b.join("\n")).join("\n\n"))).f1;

/** The shingle rule's blocks kept. */
function shingleKept(truth: string, blocks: string[][]): string[][] {
  const tw = wordsOf(truth);
  const grams = [1, 2, 3, 4].map(
    (n) => new Set(tw.slice(0, tw.length - n + 1).map((_, i) => tw.slice(i, i + n).join(" "))),
  );
  return blocks.filter((b) => {
    const w = wordsOf(b.join("\n"));
    const n = Math.min(4, w.length);
    if (!n) return true;
    const all = w.length - n + 1;
    let hit = 0;
    for (let i = 0; i < all; i++) if (grams[n - 1].has(w.slice(i, i + n).join(" "))) hit++;
    return hit / all >= 0.5;
  });
}

/** Greedy: blocks dropped one at a time while the page's F1 rises, passes until none does. */
function greedyKept(truth: string, blocks: string[][]): string[][] {
  const t = bagOf(wordsOf(truth));
  const nt = [...t.values()].reduce((a, b) => a + b, 0);
  const bags = blocks.map((b) => bagOf(wordsOf(b.join("\n"))));
  const p = bagOf(bags.flatMap((b) => [...b].flatMap(([w, n]) => Array(n).fill(w))));
  let np = [...p.values()].reduce((a, b) => a + b, 0);
  let ov = [...p].reduce((a, [w, n]) => a + Math.min(n, t.get(w) ?? 0), 0);
  const f1 = (o: number, n: number) => (o && n && nt ? (2 * o) / (n + nt) : 0);
  const keep = blocks.map(() => true);
  for (let changed = true; changed; ) {
    changed = false;
    bags.forEach((bag, i) => {
      if (!keep[i] || !bag.size) return;
      let dOv = 0;
      let dN = 0;
      for (const [w, n] of bag) {
        const [pc, tc] = [p.get(w) ?? 0, t.get(w) ?? 0];
        dOv += Math.min(pc - n, tc) - Math.min(pc, tc);
        dN += n;
      }
      if (f1(ov + dOv, np - dN) <= f1(ov, np) + 1e-12) return;
      [keep[i], changed, ov, np] = [false, true, ov + dOv, np - dN];
      for (const [w, n] of bag) p.set(w, (p.get(w) ?? 0) - n);
    });
  }
  return blocks.filter((_, i) => keep[i]);
}

const dir = process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname);
const only = process.env.WCXB_TYPE?.split(",");
const rows: { type: string; hold: boolean; f1: number[] }[] = [];
for (const page of loadWcxb(dir)) {
  if (only && !only.includes(page.type)) continue;
  let markdown = "";
  try {
    ({ markdown } = extractMainContent(decodeBody(page.bytes, null, true), page.url));
  } catch {}
  const blocks = blocksOf(markdown);
  const f1 = [
    scoreWords(page.truth, markdownAsText(markdown)).f1,
    scoreOf(page.truth, shingleKept(page.truth, blocks)),
    scoreOf(page.truth, greedyKept(page.truth, blocks)),
  ];
  rows.push({ type: page.type, hold: isHeldOut(page.url, page.id), f1 });
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
console.log("type           part   pages  output  shingle rule  greedy (hindsight)");
for (const type of [...WCXB_TYPES, "overall"])
  for (const hold of [false, true]) {
    const of = rows.filter((r) => r.hold === hold && (type === "overall" || r.type === type));
    const f = of.length ? [0, 1, 2].map((k) => mean(of.map((r) => r.f1[k])).toFixed(4)) : [];
    if (of.length)
      console.log(
        `${type.padEnd(14)} ${hold ? "held " : "train"}  ${String(of.length).padEnd(5)}  ${f.join("  ")}`,
      );
  }
