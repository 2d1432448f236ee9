/**
 * Index pages labelled articles (a wiki's "List of ..." page, a blog's front page): their content
 * is lists of links, which Readability scores low (it looks for prose), so its article keeps the
 * intro and one list, or a few teasers, links themselves. An article's own text is prose and holds
 * few links: when Readability's article is mostly links and the page's region, mostly links too,
 * holds well more than it, the page is an index and its region is the content.
 */
import { linkTextLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { type BodyWalk, elementsOf, LINKS } from "./page-walk";

/** Raw text lengths of a block: all of it, and the part inside links. */
export interface LinkText {
  chars: number;
  links: number;
}

/** Raw lengths (no whitespace folding): a cheap measure taken of the whole page before Readability; `walk` as for `elementsOf`. */
export function linkTextOf(el: DomElement, walk?: BodyWalk): LinkText {
  let links = 0;
  for (const a of elementsOf(el, LINKS, walk)) links += (a.textContent ?? "").length;
  return { chars: (el.textContent ?? "").length, links };
}

/** An index's text is at least this share link text (an article's menus and footers weigh far less beside its prose). */
export const INDEX_LINK_SHARE = 0.6;
/** ... and it holds this many times the text of Readability's article (the test other pages' regions face). */
export const INDEX_OVER_ARTICLE = 1.5;

/** Readability's article of an index is part of it, at least this share links (a real article is prose, whatever teasers surround it). */
export const INDEX_ARTICLE_LINK_SHARE = 0.5;

/**
 * Whether the page (measured before Readability) may be an index that Readability read in part: the
 * page is mostly links and well more than the article, which is mostly links too. A cheap gate
 * before the region is read.
 */
export function mayBeIndex(page: LinkText, article: DomElement, articleChars: number): boolean {
  return (
    page.links >= page.chars * INDEX_LINK_SHARE &&
    page.chars > articleChars * INDEX_OVER_ARTICLE &&
    linkTextLength(article) >= articleChars * INDEX_ARTICLE_LINK_SHARE
  );
}

/** Whether the region (with `chars` of text) is an index: mostly links, and well more than the article. */
export function isIndexRegion(region: DomElement, chars: number, articleChars: number): boolean {
  return chars > articleChars * INDEX_OVER_ARTICLE && linkTextLength(region) >= chars * INDEX_LINK_SHARE;
}
