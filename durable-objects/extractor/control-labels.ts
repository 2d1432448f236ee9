/**
 * The label of an interface control left behind as a line of its own once its control is gone:
 * a dialog's "Close" or "×", a "Back" or "Back to top" link, a photo's "toggle caption" switch, an
 * icon's "Icon" placeholder, an ad slot's "Advertisement" tag, a card's "Add to cart", "Add to
 * wishlist", "Quick view" or "Compare" button, a list's "Load more" or "Show more", an accordion's
 * "Expand all", a player's "Play" or "Mute", "Share", "Download", a carousel's "Slide 2 of 5", a
 * card's "More in this category" or "More from Science" link, an "Apply now" or "Sign in to
 * continue" button, a teaser's "Read more", "Continue reading" or "Learn more" link. A reader sees a button or a marker there, not words of the page; a line that
 * is nothing but such a label goes, and the same words inside a sentence or beside other words stay.
 */
import { isCodeFence } from "./markdown";
import { CONTROL_LABEL } from "./vocabulary/page-words";

/** Lines longer than this are never a lone label. */
export const MAX_LABEL_LINE_CHARS = 80;

/** The words a Markdown line shows: link targets, heading marks, list markers, emphasis and brackets left out. */
function shownText(line: string): string {
  return line
    .replace(/\]\([^)]*\)/g, "")
    .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+\.\s+)?/, "")
    .replace(/[[\]*_]/g, "")
    .trim();
}

/**
 * The Markdown without lines that are only a control's label (CONTROL_LABEL), code blocks and
 * table rows left as they are. Cost: one regular-expression test per short line.
 */
export function dropControlLabels(markdown: string): string {
  let inCode = false;
  const lines = markdown.split("\n");
  const kept = lines.filter((line) => {
    if (isCodeFence(line)) inCode = !inCode;
    if (inCode || line.length > MAX_LABEL_LINE_CHARS || line.trimStart().startsWith("|")) return true;
    const shown = shownText(line);
    return !shown || !CONTROL_LABEL.test(shown);
  });
  return kept.length < lines.length ? kept.join("\n").replace(/\n{3,}/g, "\n\n") : markdown;
}
