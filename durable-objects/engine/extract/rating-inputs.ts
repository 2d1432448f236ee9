/**
 * Rate-this controls ("Rate this book", five stars to click): a row of links or buttons that go
 * nowhere, labelled 1 to 5 ("1 of 5 stars" ... "5 of 5 stars"), which a reader sees as empty
 * stars. A listing may print one under every item (100 rows, 20 words each); the words are a
 * form's labels, not the page's text. The stars that show an item's rating are text, not
 * controls, and stay; so do numbered links that lead somewhere (pagination).
 */
import { textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { junkLabel } from "./junk-labels";

/** A control's label that gives its rank: "3", "3 stars", "3 of 5 stars", "3 out of 5", "3/5". */
const RANK_LABEL = /^(\d{1,2})(\s*(?:of|out of|\/)\s*\d{1,2})?(\s*stars?)?$/i;
/** A rate control offers at least this many ranks... */
const MIN_RANKS = 3;
/** ... and at most this many. */
const MAX_RANKS = 10;
/** Class/id words of a rating widget (`star-rating`, `ratingStars`, `wtrRating`, `vote`). */
const RATING_ATTR =
  /(^|[\s_-])([Rr]atings?|[Rr]ate|[Ss]tars?|[Vv]otes?)($|[\s_-])|[a-z](Rating|Stars?|Rate)($|[\s_A-Z-])/;
/** A rating widget's own words around its stars ("Rate this book", "Clear rating") are at most this long. */
const MAX_WIDGET_WORDS_CHARS = 60;

/** Whether the control leads nowhere: a button, or a link to no page (no target, `#`, `javascript:`). */
function goesNowhere(el: DomElement): boolean {
  if (el.tagName === "BUTTON") return true;
  const href = (el.getAttribute("href") ?? "").trim();
  return href === "" || href.startsWith("#") || /^javascript:/i.test(href);
}

/** The rank a control's label gives, and whether the label speaks of stars or a scale ("of 5"). */
function rankOf(el: DomElement): { rank: number; scaled: boolean } | null {
  if (el.tagName !== "A" && el.tagName !== "BUTTON") return null;
  const match = RANK_LABEL.exec(textOf(el));
  return match ? { rank: Number(match[1]), scaled: Boolean(match[2] || match[3]) } : null;
}

/** The controls of a rate row that starts at `first` (ranked 1, then 2, 3 ... as siblings), or null. */
function rateRow(first: DomElement): DomElement[] | null {
  const row = [first];
  let scaled = rankOf(first)?.scaled ?? false;
  for (let n = first.nextElementSibling; n && row.length < MAX_RANKS; n = n.nextElementSibling) {
    const ranked = rankOf(n);
    if (!ranked || ranked.rank !== row.length + 1 || n.tagName !== first.tagName || !goesNowhere(n)) break;
    row.push(n);
    scaled ||= ranked.scaled;
  }
  if (row.length < MIN_RANKS) return null;
  // Bare numbers are a rate row only inside a widget named for ratings.
  const parent = first.parentElement;
  return scaled || (parent && RATING_ATTR.test(junkLabel(parent))) ? row : null;
}

/** The widget a rate row belongs to: its parent when it holds only the row, then each rating-named block around it with few words of its own. */
function widgetOf(row: DomElement[], root: DomElement): DomElement[] {
  const parent = row[0].parentElement;
  const rowChars = row.reduce((sum, el) => sum + textOf(el).length, 0);
  if (!parent || parent === root || parent.children.length !== row.length) return row;
  let widget = parent;
  for (let up = widget.parentElement; up && up !== root; up = up.parentElement) {
    if (!RATING_ATTR.test(junkLabel(up))) break;
    if (textOf(up).length - rowChars > MAX_WIDGET_WORDS_CHARS) break;
    widget = up;
  }
  return [widget];
}

/**
 * Removes the rate-this controls of the content: a row of at least three sibling links or
 * buttons that go nowhere, labelled 1, 2, 3 ... (with "stars" or a scale, or in a rating-named
 * widget), with the rating-named widget around it when its own words are few. Cost: one query
 * of the chosen content's links and buttons; a label test on each.
 */
export function removeRatingInputs(root: DomElement): void {
  for (const el of root.querySelectorAll("a, button")) {
    if (!goesNowhere(el) || rankOf(el)?.rank !== 1 || !el.parentElement) continue;
    const row = rateRow(el);
    if (row) for (const part of widgetOf(row, root)) part.remove();
  }
}
