/**
 * Customer reviews on a shop's page: other people's words about the product, which no reader takes
 * for the product's own text. A review list is found by its shape, not by its label or its share:
 * repeated blocks of one shape, each with its own star rating, the reviewer's name and a date.
 * The share guards of the labelled widgets keep a review list that outweighs the product's text
 * (a book's page: 3,000 words of reviews beside 1,500 of its own); the shape says what it is.
 */
import type { DomElement } from "./dom-types";

/** Class/id words of a star rating (`a-icon-star`, `a-star-5`, `review-rating`, `ratingValue`, `starRating`). */
const RATING_ATTR = /((^|[\s_-])[Ss]tars?|[a-z]Stars?)($|[\s_A-Z0-9-])|[Ss]tar-?[Rr]atings?/;
/** Class/id words of the reviewer's name (`a-profile-name`, `author`, `review-name`, `userName`). */
const REVIEWER_ATTR =
  /(^|[\s_-])(author|reviewer|user-?name|nick-?name|profile|display-?name|name)($|[\s_-])|[a-z](Author|Reviewer|Name)($|[\s_A-Z-])/;
/** A link to a reviewer's profile. */
const PROFILE_HREF = /\/(profile|users?|members?)\//i;
/** A review's date as printed: `October 18, 2018`, `18 October 2018`, `02/16/2023`, `2023-02-16`, `3 weeks ago`. */
const REVIEW_DATE =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?,?\s+\d{4}(?!\d)|\b\d{1,2}(st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}(?!\d)|\d{1,2}[/.-]\d{1,2}[/.-](\d{4}|\d{2})(?!\d)|\b\d{4}-\d{2}-\d{2}\b|\b\d+\s+(day|week|month|year)s?\s+ago\b/i;
/** A review list has at least this many reviews of one shape. */
export const MIN_REVIEW_ITEMS = 3;

const isRating = (el: DomElement) => RATING_ATTR.test(el.getAttribute("class") ?? "");

/** Whether a block names its reviewer: a name-labelled element, microdata `author`, or a link to a profile. */
function namesReviewer(item: DomElement): boolean {
  for (const el of item.querySelectorAll("[class], [itemprop=author], a[href]")) {
    if (el.getAttribute("itemprop") === "author") return true;
    if (REVIEWER_ATTR.test(el.getAttribute("class") ?? "")) return true;
    if (el.tagName === "A" && PROFILE_HREF.test(el.getAttribute("href") ?? "")) return true;
  }
  return false;
}

/** Whether a block is dated: a `<time>`, microdata `datePublished`, or a date in its text. */
const isDated = (item: DomElement) =>
  item.querySelector("time, [itemprop=datePublished]") !== null || REVIEW_DATE.test(item.textContent ?? "");

/**
 * The review blocks under root (`labelled`: its `[class], [id]` elements in document order): for
 * each star rating, the outermost block holding no other rating; those that name a reviewer and
 * are dated, in shapes (tag and class) of at least MIN_REVIEW_ITEMS blocks.
 */
export function reviewItems(root: DomElement, labelled: DomElement[]): DomElement[] {
  const ratings: DomElement[] = [];
  const marked = new Set<DomElement>();
  for (const el of labelled) {
    if (!isRating(el)) continue;
    marked.add(el);
    // A rating drawn inside another (five star icons in a stars widget) is that one.
    let inner = false;
    for (let n = el.parentElement; n && n !== root && !inner; n = n.parentElement) inner = marked.has(n);
    if (!inner) ratings.push(el);
  }
  if (ratings.length < MIN_REVIEW_ITEMS) return [];
  // How many ratings each block holds.
  const counts = new Map<DomElement, number>();
  for (const r of ratings)
    for (let n = r.parentElement; n && n !== root; n = n.parentElement)
      counts.set(n, (counts.get(n) ?? 0) + 1);
  const shapes = new Map<string, DomElement[]>();
  const seen = new Set<DomElement>();
  for (const r of ratings) {
    let item = r;
    while (item.parentElement && item.parentElement !== root && counts.get(item.parentElement) === 1)
      item = item.parentElement;
    if (item === r || seen.has(item)) continue;
    seen.add(item);
    if (!isDated(item) || !namesReviewer(item)) continue;
    const shape = `${item.tagName}.${item.getAttribute("class") ?? ""}`;
    shapes.set(shape, [...(shapes.get(shape) ?? []), item]);
  }
  return [...shapes.values()].filter((items) => items.length >= MIN_REVIEW_ITEMS).flat();
}

/** Removes the customer reviews (reviewItems) from a shop's page, whatever share of its text they hold. */
export function removeReviewItems(root: DomElement, labelled: DomElement[]): void {
  for (const item of reviewItems(root, labelled)) item.remove();
}
