/**
 * Blocks a CMS sets inside an article's text that are about the site, not the story: the author's
 * box (schema.org `author` microdata holding a biography), the site's standing disclaimer.
 */
import { isInside } from "./article-cleanup";
import { lazyTextLength, shortText } from "./dom-text";
import type { DomElement } from "./dom-types";

/**
 * Class/id words of blocks that are boilerplate beside a story (the site's standing disclaimer or
 * affiliate disclosure) but may be what a legal or service page is about: junk on articles only.
 */
export const ARTICLE_JUNK_ATTR = /(^|[\s_-])(disclaimers?|disclosures?)($|[\s_-])/i;

/** An element marked as the article's `author` holding more than this many characters is a biography, not a byline. */
export const MIN_AUTHOR_BIO_CHARS = 120;
/** ... and it goes only when it holds less than this share of the article's text. */
export const MAX_AUTHOR_BOX_SHARE = 0.3;

/** Removes author boxes marked with schema.org microdata (`itemprop=author` holding a biography). */
export function removeAuthorBoxes(root: DomElement): void {
  const total = lazyTextLength(root, (el) => (el.textContent ?? "").length);
  for (const box of [...root.querySelectorAll("[itemprop~=author]")]) {
    if (!isInside(box, root)) continue;
    // A byline names the author in a few words; a box with the author's description is about them.
    if (shortText(box, MIN_AUTHOR_BIO_CHARS) !== null) continue;
    if ((box.textContent ?? "").length < total() * MAX_AUTHOR_BOX_SHARE) box.remove();
  }
}
