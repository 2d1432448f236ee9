/**
 * Product pages: the product's own text (name, price, description, specs) without what shops print
 * around it (reviews, questions, other products) or print twice (one copy per viewport, carousel
 * clones, "Loading" placeholders).
 */
import { removeJunkSections } from "./boilerplate";
import type { DomElement } from "./dom-types";
import { isCodeFence, keyWords, markdownWords } from "./markdown";
import { PRODUCT_JUNK_HEADING } from "./vocabulary/page-words";

/** A section under such a heading goes unless it holds this share of the content (then it is likely the content). */
export const PRODUCT_SECTION_SHARE = 0.4;

/** Removes the sections of the chosen content that are about something other than the product. */
export function removeProductSections(root: DomElement): void {
  removeJunkSections(root, PRODUCT_JUNK_HEADING, PRODUCT_SECTION_SHARE);
}

/** Removes Markdown blocks (paragraphs, headings, lists, tables) that repeat an earlier block word for word. */
export function dropRepeatedBlocks(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    const key = markdownWords(block);
    if (key && seen.has(key)) continue;
    if (key) seen.add(key);
    kept.push(block);
  }
  return kept.join("\n\n");
}

/** On a page of no stated type or an article, a block of at least this many words that repeats an earlier one is a copy. */
export const MIN_REPEATED_BLOCK_WORDS = 25;

/**
 * Removes Markdown blocks of at least MIN_REPEATED_BLOCK_WORDS words that repeat an earlier block
 * word for word: a shop or a listing of no stated type, or an article, may print a text once per
 * layout (desktop, phone, a tab and its accordion twin). Tables and code stay, as do shorter blocks (a
 * listing's cards repeat their labels).
 */
export function dropRepeatedLongBlocks(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  let fenced = false;
  for (const block of markdown.split(/\n{2,}/)) {
    let code: boolean = fenced;
    for (const line of block.split("\n")) if (isCodeFence(line)) [fenced, code] = [!fenced, true];
    const key = code || block.trimStart().startsWith("|") ? "" : markdownWords(block);
    if (keyWords(key) >= MIN_REPEATED_BLOCK_WORDS) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(block);
  }
  return kept.join("\n\n");
}

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
