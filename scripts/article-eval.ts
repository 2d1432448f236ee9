/** Fast loop in Node: the article-extraction set with its 4-shingle metric (the bench's scorer). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { extractMainContent } from "../durable-objects/engine/extract/extract";
import { decodeBody } from "../durable-objects/engine/net/charset";

const dir = process.env.EXTRACTION_DATA ?? join(import.meta.dirname, "../../shared/data/article-extraction");
const truth = JSON.parse(readFileSync(`${dir}/ground-truth.json`, "utf8")) as Record<
  string,
  { articleBody: string; url: string }
>;
const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;
function shingles(text: string): Map<string, number> {
  const tokens = text.replace(/\]\([^)]*\)/g, "]").match(TOKEN) ?? [];
  const out = new Map<string, number>();
  const add = (s: string) => out.set(s, (out.get(s) ?? 0) + 1);
  if (tokens.length > 0 && tokens.length < 4) add(tokens.join(" "));
  for (let i = 0; i + 4 <= tokens.length; i++) add(tokens.slice(i, i + 4).join(" "));
  return out;
}
let P = 0;
let R = 0;
let n = 0;
const worst: [string, number, number][] = [];
for (const f of readdirSync(`${dir}/html`).sort()) {
  const key = f.replace(/\.html\.gz$/, "");
  const html = decodeBody(new Uint8Array(gunzipSync(readFileSync(`${dir}/html/${f}`))), null, true);
  const t = shingles(truth[key].articleBody);
  const p = shingles(extractMainContent(html, truth[key].url).markdown);
  let [tp, fp, fn] = [0, 0, 0];
  for (const [s, c] of p) {
    tp += Math.min(c, t.get(s) ?? 0);
    fp += Math.max(0, c - (t.get(s) ?? 0));
  }
  for (const [s, c] of t) fn += Math.max(0, c - (p.get(s) ?? 0));
  const pr = fp === 0 && fn === 0 ? 1 : tp + fp === 0 ? 0 : tp / (tp + fp);
  const rc = fp === 0 && fn === 0 ? 1 : tp + fn === 0 ? 0 : tp / (tp + fn);
  P += pr;
  R += rc;
  n++;
  worst.push([key.slice(0, 8), pr, rc]);
}
const [p, r] = [P / n, R / n];
console.log(`articles ${n}: P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / (p + r)).toFixed(3)}`);
console.log(
  worst
    .sort((a, b) => a[1] + a[2] - b[1] - b[2])
    .slice(0, 6)
    .map((w) => `${w[0]} P${w[1].toFixed(2)} R${w[2].toFixed(2)}`)
    .join("; "),
);
