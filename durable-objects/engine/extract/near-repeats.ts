/**
 * A product page's paragraph printed a second time with a word or two changed: the description
 * written once in the overview and again in a "Details" tab or an ingredients list, a badge's
 * sentence repeated under another heading ("Purchase with purpose! Repair makes…" and then
 * "Repair makes…"). The exact repeats go in `dropRepeatedLines`; these are the copies that differ
 * by a word, a trailing mark or a lead-in, which a reader still reads as the same text twice.
 */
import { isCodeFence, markdownWords } from "./markdown";

/** Only lines of at least this many words are compared: short lines (labels, spec values) repeat legitimately. */
export const MIN_NEAR_REPEAT_WORDS = 10;
/** A line whose word triples stand at this share in one earlier line repeats it. */
export const NEAR_REPEAT_SHARE = 0.9;
/** ...when it holds at least this share of that line's words (and that line of its own): one is no summary of the other. */
export const NEAR_REPEAT_LENGTH = 0.8;

/** A line's runs of three words, as keys. */
function triples(words: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 2 < words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

/**
 * Removes Markdown lines of MIN_NEAR_REPEAT_WORDS words or more that repeat an earlier line but
 * for a word or two (NEAR_REPEAT_SHARE of their word triples in it, lengths within
 * NEAR_REPEAT_LENGTH); table rows and code stay. A block left with no line goes.
 * Cost: one set of triples per long line, compared with the earlier long lines.
 */
export function dropNearRepeatedLines(markdown: string): string {
  const earlier: { length: number; grams: Set<string> }[] = [];
  const kept: string[] = [];
  let fenced = false;
  let dropped = false;
  for (const block of markdown.split(/\n{2,}/)) {
    const lines: string[] = [];
    for (const line of block.split("\n")) {
      if (isCodeFence(line)) fenced = !fenced;
      const words = fenced || line.trimStart().startsWith("|") ? [] : markdownWords(line).split(" ");
      if (words.length >= MIN_NEAR_REPEAT_WORDS) {
        const grams = triples(words);
        const repeats = earlier.some((e) => {
          if (Math.min(e.length, words.length) < Math.max(e.length, words.length) * NEAR_REPEAT_LENGTH)
            return false;
          let shared = 0;
          for (const g of grams) if (e.grams.has(g)) shared++;
          return shared >= grams.size * NEAR_REPEAT_SHARE;
        });
        if (repeats) {
          dropped = true;
          continue;
        }
        earlier.push({ length: words.length, grams });
      }
      lines.push(line);
    }
    if (lines.length) kept.push(lines.join("\n"));
  }
  return dropped ? kept.join("\n\n") : markdown;
}
