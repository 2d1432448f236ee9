/**
 * Lines printed twice in a row: a page that shows a label once per layout (a desktop and a phone
 * copy, one of them hidden by a style sheet the extractor cannot read) leaves the same line twice,
 * one after the other, in the Markdown. A reader sees it once.
 */
import { isCodeFence, keyWords, markdownWords } from "./markdown";

/** A doubled line goes when it has at most this many words (a label, a badge, a button, a short heading;
 * a paragraph twice in a row may be the page's own). */
export const MAX_DOUBLED_LINE_WORDS = 6;

/**
 * Removes a Markdown line that repeats, word for word, the line with words just before it (blank
 * lines between them do not count) when it has at most MAX_DOUBLED_LINE_WORDS words. Table rows and
 * code stay (a table's cells and a program's lines may repeat). Cost: one pass over the lines.
 */
export function dropDoubledLines(markdown: string): string {
  const kept: string[] = [];
  let fenced = false;
  let previous = "";
  for (const line of markdown.split("\n")) {
    if (isCodeFence(line)) fenced = !fenced;
    const key = fenced || line.trimStart().startsWith("|") ? "" : markdownWords(line);
    if (key) {
      if (key === previous && keyWords(key) <= MAX_DOUBLED_LINE_WORDS) continue;
      previous = key;
    } else if (fenced || line.trim()) previous = "";
    kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n");
}
