/**
 * Product pages print lines twice (one copy per viewport, carousel clones, a tab and its accordion
 * twin): each is read once, in the Markdown.
 */
import { isCodeFence, keyWords, markdownWords } from "./markdown";

/** A line of at least this many words that repeats an earlier line is a copy (a phone layout's badges, a feature list printed twice). */
export const MIN_REPEATED_LINE_WORDS = 3;

/**
 * Removes Markdown lines that repeat an earlier line word for word (the same text as a list item
 * and as a paragraph line counts once); table rows, code and lines shorter than
 * MIN_REPEATED_LINE_WORDS words stay. A block left with no line goes.
 */
export function dropRepeatedLines(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  let fenced = false;
  for (const block of markdown.split(/\n{2,}/)) {
    const lines: string[] = [];
    for (const line of block.split("\n")) {
      if (isCodeFence(line)) fenced = !fenced;
      const key = fenced || line.trimStart().startsWith("|") ? "" : markdownWords(line);
      if (keyWords(key) >= MIN_REPEATED_LINE_WORDS) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      lines.push(line);
    }
    if (lines.length) kept.push(lines.join("\n"));
  }
  return kept.join("\n\n");
}
