/**
 * The count a category or search page prints over its results ("27 Products", "1–30 of 338
 * products", "Showing 24 of 193 results", "Products (338)"): a state of the listing, like its page
 * number, not its content. A line that is nothing but such a count goes; a count inside a
 * sentence or beside other words stays.
 */
import { isCodeFence } from "./markdown";

/** A line holding only a result count (as a heading at most). */
const COUNT_LINE =
  /^[ \t]*(?:#{1,6} +)?(?:(?:showing|displaying|viewing|loaded)\s+)?(?:\d[\d,.]*\s*(?:[-–]|to)\s*\d[\d,.]*\s+of\s+|\d[\d,.]*\s+of\s+)?\d[\d,.]*\+?\s+(?:results?|products?|items?|styles?)(?:\s+found)?\.?[ \t]*$|^[ \t]*(?:#{1,6} +)?(?:products?|results?|items?)\s*\(\d[\d,.]*\)[ \t]*$/i;

/** The Markdown without lines that are only a count of the page's results, code blocks left as they are. */
export function dropResultCounts(markdown: string): string {
  let inCode = false;
  const kept: string[] = [];
  for (const line of markdown.split("\n")) {
    if (isCodeFence(line)) inCode = !inCode;
    if (!inCode && line.length <= 60 && COUNT_LINE.test(line)) continue;
    kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n");
}
