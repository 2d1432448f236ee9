/**
 * A page's table of contents is a widget: when the extraction drops its list of in-page links, its
 * label ("Table of contents", "In this article") stays behind as a line of its own, over nothing.
 */

/** A line that is only a table of contents' label (heading marks, emphasis and a colon allowed). */
const CONTENTS_LABEL =
  /^\s*(?:#{1,6}\s+)?[*_]*(?:table of contents|contents|in this (?:article|post|guide)|on this page)[*_]*:?[*_]*\s*$/i;

/** A line that is only a link, as a list item or not (an entry of the contents). */
const LINK_LINE = /^\s*(?:[-*+]|\d+\.)?\s*\[[^\]]*\]\([^)]*\)\s*$/;

/** A Markdown heading line. */
const HEADING_LINE = /^\s*#{1,6}\s/;

/** Cheap test before reading the lines: the Markdown names a contents label at all. */
const MAY_HOLD_LABEL = /contents|in this (?:article|post|guide)|on this page/i;

/**
 * Removes the lines that are only a table of contents' label, with the lines of links right after
 * them (the entries, when they are still there; blank lines between them do not count), when the
 * label stands over those links, a heading or nothing. Cost: one regular-expression test of the
 * Markdown, and one per line on the pages that name such a label.
 */
export function dropContentsLabels(markdown: string): string {
  if (!MAY_HOLD_LABEL.test(markdown)) return markdown;
  const lines = markdown.split("\n");
  const kept: string[] = [];
  let dropped = false;
  for (let i = 0; i < lines.length; i++) {
    if (!CONTENTS_LABEL.test(lines[i])) {
      kept.push(lines[i]);
      continue;
    }
    let next = i + 1;
    let links = false;
    for (; next < lines.length && (!lines[next].trim() || LINK_LINE.test(lines[next])); next++)
      links ||= lines[next].trim() !== "";
    // A label over text of its own (a box's "Contents", a list of what it holds) stays.
    if (!links && next < lines.length && !HEADING_LINE.test(lines[next])) {
      kept.push(lines[i]);
      continue;
    }
    dropped = true;
    // Keep one blank line where the label was, so the blocks around it stay apart.
    if (kept.length && next < lines.length) kept.push("");
    i = next - 1;
  }
  return dropped
    ? kept
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim()
    : markdown;
}
