/**
 * A product's spec rows printed in two tables: a "Key specs" summary and the full spec sheet, or
 * one sheet printed once per layout. A row that repeats a row of an earlier table word for word is
 * read once; rows repeated inside one table (a grid of sizes) are that table's data and stay.
 */
import { isCodeFence, keyWords, markdownWords } from "./markdown";

/** Rows of fewer words ("| Yes |", "| Color | Black |") may repeat between tables by chance. */
export const MIN_REPEATED_ROW_WORDS = 3;

const isRow = (line: string) => line.trimStart().startsWith("|");
const isSeparator = (line: string) => /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line);

/**
 * Removes the body rows of a Markdown table that repeat a row of an earlier table (at least
 * MIN_REPEATED_ROW_WORDS words); a table left with no body row goes whole. Cost: one word key per
 * table row.
 */
export function dropRepeatedRows(markdown: string): string {
  const lines = markdown.split("\n");
  const earlier = new Set<string>();
  const kept: string[] = [];
  let fenced = false;
  let dropped = false;
  for (let i = 0; i < lines.length; ) {
    if (isCodeFence(lines[i])) fenced = !fenced;
    if (fenced || !isRow(lines[i])) {
      kept.push(lines[i++]);
      continue;
    }
    let end = i;
    while (end < lines.length && isRow(lines[end])) end++;
    const table = lines.slice(i, end);
    const bodyAt = isSeparator(table[1] ?? "") ? 2 : 0;
    const keys = table.map((row, j) => (j < bodyAt ? "" : markdownWords(row)));
    const body = table.filter((_, j) => {
      const key = keys[j];
      return j < bodyAt || keyWords(key) < MIN_REPEATED_ROW_WORDS || !earlier.has(key);
    });
    if (body.length < table.length) dropped = true;
    if (body.length > bodyAt) kept.push(...body);
    for (const key of keys) if (key) earlier.add(key);
    i = end;
  }
  return dropped ? kept.join("\n").replace(/\n{3,}/g, "\n\n") : markdown;
}
