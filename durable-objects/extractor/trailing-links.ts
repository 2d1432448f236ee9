/**
 * Where a story ends: the lines of links a page prints after the last of its text (other posts'
 * titles, "Resources" lists, tag links, a footer's contact and tool links that Readability took
 * in with the story) are not the story. Read on the Markdown, from the end back.
 */

/** A line whose words are at least this share link text is a link line... */
export const TRAILING_LINK_SHARE = 0.9;
/** ... and the run is cut only when it holds at least this many link lines of two words or more... */
export const MIN_TRAILING_LINK_LINES = 2;
/** ... and less than this share of the content's words. */
export const MAX_TRAILING_LINKS_SHARE = 0.3;
/** On a page of no stated type the content before the run must be prose: under this share link words. */
export const MAX_PROSE_LINK_SHARE = 0.3;
/** Lines of at most this many words (a heading such as "Tags:" or "Tools", an image) may sit between the link lines. */
export const MAX_FILLER_WORDS = 3;

/** A price on a line: a shop's cards (a title linked, a price) are its content, not links after it. */
const PRICE = /[$€£¥]\s?\d/;
const LINK = /\[([^\]]*)\]\([^)]*\)/g;
const WORD = /[\p{L}\p{N}_]+/gu;
const wordCount = (text: string) => text.match(WORD)?.length ?? 0;

/** The visible words of a Markdown line and how many of them are link text. */
function lineWords(line: string): { words: number; linked: number } {
  let linked = 0;
  const visible = line.replace(LINK, (_, label: string) => {
    linked += wordCount(label);
    return label;
  });
  return { words: wordCount(visible), linked };
}

/** Where the run of link lines at the end of the content starts (read from the last line back); null when there is none to cut. */
function linkRun(lines: string[]): { edge: number; words: number } | null {
  let edge = -1;
  let linkLines = 0;
  let runWords = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line) continue;
    if (line.startsWith("```") || line.startsWith("|") || PRICE.test(line)) break;
    const { words, linked } = lineWords(line);
    if (words > 0 && linked >= words * TRAILING_LINK_SHARE) {
      if (words >= 2) linkLines++;
    } else if (words > MAX_FILLER_WORDS) break;
    edge = i;
    runWords += words;
  }
  return linkLines < MIN_TRAILING_LINK_LINES ? null : { edge, words: runWords };
}

/** Whether a run of this many words is a small part of the content (see MAX_TRAILING_LINKS_SHARE). */
const isSmallPart = (runWords: number, markdown: string) =>
  runWords < wordCount(markdown.replace(LINK, "$1")) * MAX_TRAILING_LINKS_SHARE;

/**
 * Removes the run of link lines that ends the content: from the last line back, lines that are
 * (nearly) all link text, with short lines between them, when at least two of them hold two
 * words or more and the run holds under 30% of the content's words. Code, tables and prices end the run.
 * With `afterProse` (a page of no stated type: a listing's or a category's links are its content),
 * only when the content before the run is prose, under 30% link words.
 * Cost: the lines of the run and one word count of the content when a run is found.
 */
export function dropTrailingLinks(markdown: string, afterProse = false): string {
  const lines = markdown.split("\n");
  const run = linkRun(lines);
  if (!run || !isSmallPart(run.words, markdown)) return markdown;
  const kept = lines.slice(0, run.edge).join("\n").trimEnd();
  if (afterProse) {
    const { words, linked } = lineWords(kept);
    if (linked >= words * MAX_PROSE_LINK_SHARE) return markdown;
  }
  return kept;
}
