/**
 * The passes over an extraction's Markdown: lines and blocks that the page's layout printed twice,
 * runs of links around a story, and labels left with nothing to label.
 */
import { passOn } from "./passes";
import { dropControlLabels } from "./control-labels";
import { dropDoubledLines } from "./doubled-lines";
import { dropNearRepeatedLines } from "./near-repeats";
import type { PageKind } from "./page-kind";
import { dropRepeatedParagraphs, dropRepeatedQuotes } from "./post-lists";
import { dropRepeatedBlocks, dropRepeatedLines } from "./product-page";
import { dropRepeatedRows } from "./repeated-rows";
import { dropTrailingLinks } from "./trailing-links";

/** The Markdown of a page of `kind` cleaned line by line; `threaded` when its content is a thread of posts. */
export function cleanMarkdown(markdown: string, kind: PageKind, threaded: boolean): string {
  // A reply quoting an earlier post repeats it: the thread keeps the post once.
  if (threaded && passOn("repeated-quotes")) markdown = dropRepeatedParagraphs(dropRepeatedQuotes(markdown));
  // A story or a thread ends where the lines of links after it begin.
  if (!passOn("trailing-links")) {
    // switched off
  } else if (kind === "article" || kind === "forum") markdown = dropTrailingLinks(markdown);
  // On a page of no stated type, only after prose: a listing's links are its content.
  else if (kind === "other") markdown = dropTrailingLinks(markdown, true);
  // A product page's block or line printed again, word for word or but for a word or two, is read once.
  if (kind === "product" && passOn("product-repeats"))
    markdown = dropRepeatedRows(dropNearRepeatedLines(dropRepeatedLines(dropRepeatedBlocks(markdown))));
  // A label printed once per layout (desktop and phone copies) stands twice in a row: it is read once.
  if (passOn("doubled-lines")) markdown = dropDoubledLines(markdown);
  // A control's label left alone on its line ("Close", "Back to top", "Sort by:", "Advertisement") is no text of the page.
  if (passOn("control-labels")) markdown = dropControlLabels(markdown);
  return markdown;
}
