/**
 * A product page's paragraph printed a second time with a word or two changed: the description
 * written once in the overview and again in a "Details" tab or an ingredients list, a badge's
 * sentence repeated under another heading ("Purchase with purpose! Repair makes…" and then
 * "Repair makes…"). The exact repeats go in `dropRepeatedLines`; these are the copies that differ
 * by a word, a trailing mark or a lead-in, which a reader still reads as the same text twice.
 * On a forum, the same holds for a reply's quote of an earlier post, cut short or retouched.
 */
import { isCodeFence, markdownWords } from "./markdown";

/** Only lines of at least this many words are compared: short lines (labels, spec values) repeat legitimately. */
export const MIN_NEAR_REPEAT_WORDS = 10;
/** Shorter lines cannot hold that many words (a cheap test before the words are read). */
const MIN_NEAR_REPEAT_CHARS = 2 * MIN_NEAR_REPEAT_WORDS - 1;
/** A line whose word triples stand at this share in one earlier line repeats it. */
export const NEAR_REPEAT_SHARE = 0.9;
/** ...when it holds at least this share of that line's words (and that line of its own): one is no summary of the other. */
export const NEAR_REPEAT_LENGTH = 0.8;

/** Word numbers below this make a triple's key one exact number (below 2^53). */
const WORD_IDS = 2 ** 17;

/** A line's runs of three words, as numbers (each word numbered in `ids`, shared by the page's lines). */
function triples(words: string[], ids: Map<string, number>): Set<number> {
  const nums = words.map((w) => {
    let id = ids.get(w);
    if (id === undefined) {
      id = ids.size % WORD_IDS;
      ids.set(w, id);
    }
    return id;
  });
  const out = new Set<number>();
  for (let i = 0; i + 2 < nums.length; i++)
    out.add((nums[i] * WORD_IDS + nums[i + 1]) * WORD_IDS + nums[i + 2]);
  return out;
}

/**
 * Removes Markdown lines of MIN_NEAR_REPEAT_WORDS words or more that repeat an earlier line but
 * for a word or two (NEAR_REPEAT_SHARE of their word triples in it, lengths within
 * NEAR_REPEAT_LENGTH) and by no number (lines that differ only in a number are items of a
 * series: sizes, steps, models); table rows and code stay. A block left with no line goes.
 * Cost: one set of triples per long line, looked up in an index of the earlier lines' triples.
 */
export function dropNearRepeatedLines(markdown: string): string {
  const earlier: string[][] = [];
  const linesOf = new Map<number, number[]>();
  const ids = new Map<string, number>();
  const kept: string[] = [];
  let fenced = false;
  let dropped = false;
  for (const block of markdown.split(/\n{2,}/)) {
    const lines: string[] = [];
    for (const line of block.split("\n")) {
      if (isCodeFence(line)) fenced = !fenced;
      const words =
        fenced || line.length < MIN_NEAR_REPEAT_CHARS || line.trimStart().startsWith("|")
          ? []
          : markdownWords(line).split(" ");
      if (words.length >= MIN_NEAR_REPEAT_WORDS) {
        const grams = triples(words, ids);
        if (repeatsEarlier(grams, words, linesOf, earlier)) {
          dropped = true;
          continue;
        }
        for (const g of grams) {
          const at = linesOf.get(g);
          if (at) at.push(earlier.length);
          else linesOf.set(g, [earlier.length]);
        }
        earlier.push(words);
      }
      lines.push(line);
    }
    if (lines.length) kept.push(lines.join("\n"));
  }
  return dropped ? kept.join("\n\n") : markdown;
}

/** Whether one earlier line (by the index of its triples) holds NEAR_REPEAT_SHARE of these triples, a like length and the same numbers. */
function repeatsEarlier(
  grams: Set<number>,
  words: string[],
  linesOf: Map<number, number[]>,
  earlier: string[][],
): boolean {
  const shared = new Map<number, number>();
  for (const g of grams) for (const i of linesOf.get(g) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
  for (const [i, n] of shared) {
    const [a, b] = [earlier[i].length, words.length];
    if (n < grams.size * NEAR_REPEAT_SHARE || Math.min(a, b) < Math.max(a, b) * NEAR_REPEAT_LENGTH) continue;
    if (!differsInNumbers(words, earlier[i])) return true;
  }
  return false;
}

const DIGIT = /\d/;

/** Whether a word holding a digit stands in one line and not in the other. */
function differsInNumbers(a: string[], b: string[]): boolean {
  const [inA, inB] = [new Set(a), new Set(b)];
  return a.some((w) => DIGIT.test(w) && !inB.has(w)) || b.some((w) => DIGIT.test(w) && !inA.has(w));
}
