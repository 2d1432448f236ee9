/**
 * The passes over an extraction's Markdown: lines and blocks that the page's layout printed twice,
 * runs of links around a story, and labels left with nothing to label.
 */
import { passOn } from "./passes";
import { dropControlLabels } from "./control-labels";
import { decodeEntities } from "../net/html-entities";
import { textWords } from "./dom-text";
import { dropDoubledLines } from "./doubled-lines";
import { type LdNode, ldIs } from "./metadata";
import { dropNearRepeatedLines } from "./near-repeats";
import type { PageKind } from "./page-kind";
import { dropRepeatedParagraphs, dropRepeatedQuotes } from "./post-lists";
import { dropRepeatedBlocks, dropRepeatedLines, dropRepeatedLongBlocks } from "./product-page";
import { dropRepeatedRows } from "./repeated-rows";
import { dropTrailingLinks } from "./trailing-links";

/** The Markdown of a page of `kind` cleaned line by line; `threaded` when its content is a thread of posts. */
export function cleanMarkdown(markdown: string, kind: PageKind, ld: LdNode[], threaded: boolean): string {
  // A reply quoting an earlier post repeats it: the thread keeps the post once.
  if (threaded && passOn("repeated-quotes")) markdown = dropRepeatedParagraphs(dropRepeatedQuotes(markdown));
  // A page of no stated type or an article may print a long text once per layout: it is read once.
  if ((kind === "other" || kind === "article") && passOn("repeated-long-blocks"))
    markdown = dropRepeatedLongBlocks(markdown);
  // A story or a thread ends where the lines of links after it begin.
  if (!passOn("trailing-links")) {
    // switched off
  } else if (kind === "article" || kind === "forum") markdown = dropTrailingLinks(markdown);
  // On a page of no stated type, only after prose: a listing's links are its content.
  else if (kind === "other") markdown = dropTrailingLinks(markdown, true);
  // A product page's block or line printed again, word for word or but for a word or two, is read once.
  if (kind === "product" && passOn("product-repeats"))
    markdown = dropRepeatedRows(dropNearRepeatedLines(dropRepeatedLines(dropRepeatedBlocks(markdown))));
  if (kind === "product" && passOn("product-description")) markdown = withProductDescription(markdown, ld);
  // A label printed once per layout (desktop and phone copies) stands twice in a row: it is read once.
  if (passOn("doubled-lines")) markdown = dropDoubledLines(markdown);
  // A control's label left alone on its line ("Close", "Back to top", "Sort by:", "Advertisement") is no text of the page.
  if (passOn("control-labels")) markdown = dropControlLabels(markdown);
  return markdown;
}

const wordsOf = (text: string) => textWords(text).join(" ");

/** A shorter JSON-LD description is no description. */
const MIN_LD_DESCRIPTION_CHARS = 40;

/** Adds the product's JSON-LD description when the page's markup did not show it (it sat in a tab or a script). */
function withProductDescription(markdown: string, ld: LdNode[]): string {
  const product = ld.find((n) => ldIs(n, /^(product|productgroup)$/i) && typeof n.description === "string");
  const description = typeof product?.description === "string" ? product.description.trim() : "";
  if (description.length < MIN_LD_DESCRIPTION_CHARS) return markdown;
  const text = decodeEntities(description.replace(/<[^>]+>/g, " ")).replace(/[ \t]+/g, " ");
  // Its opening read without its markup (`<b>`, `&#39;`), whose letters the page does not show.
  const opening = wordsOf(text).split(" ").slice(0, 8).join(" ");
  if (wordsOf(markdown).includes(opening)) return markdown;
  return markdown ? `${markdown}\n\n${text}` : text;
}
