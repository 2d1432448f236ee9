/**
 * The passes over an extraction's Markdown: lines and blocks that the page's layout printed twice,
 * runs of links around a story, and labels left with nothing to label.
 */
import { passOn } from "./passes";
import { dropControlLabels } from "./control-labels";
import type { PageKind } from "./page-kind";
import { dropRepeatedParagraphs, dropRepeatedQuotes } from "./post-lists";
import { dropRepeatedLines } from "./product-page";
import { dropTrailingLinks } from "./trailing-links";

/** The Markdown of a page of `kind` cleaned line by line; `threaded` when its content is a thread of posts. */
export function cleanMarkdown(markdown: string, kind: PageKind, threaded: boolean): string {
  // A reply quoting an earlier post repeats it: the thread keeps the post once.
  if (threaded && passOn("repeated-quotes")) markdown = dropRepeatedParagraphs(dropRepeatedQuotes(markdown));
  // A story or a thread ends where the lines of links after it begin.
  // On a page of no stated type, only after prose: a listing's links are its content.
  if (passOn("trailing-links") && kind !== "product")
    markdown = dropTrailingLinks(markdown, kind === "other");
  // A product page's line printed again word for word is read once.
  if (kind === "product" && passOn("product-repeats")) markdown = dropRepeatedLines(markdown);
  // A control's label left alone on its line ("Close", "Back to top", "Sort by:", "Advertisement") is no text of the page.
  if (passOn("control-labels")) markdown = dropControlLabels(markdown);
  return markdown;
}
