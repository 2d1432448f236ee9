/**
 * Blocks a CMS sets inside an article's text that are about the site, not the story: the author's
 * box (schema.org `author` microdata holding a biography), the site's standing disclaimer, a
 * carousel of other posts, a sign-up form.
 */
import { isInside } from "./article-cleanup";
import { lazyTextLength, shortText } from "./dom-text";
import type { DomElement } from "./dom-types";

/**
 * Class/id words of blocks that are boilerplate beside a story (the site's standing disclaimer or
 * affiliate disclosure) but may be what a legal or service page is about, and a carousel's slides
 * (`swiper`: other posts or products shown beside the story): junk on articles only.
 */
export const ARTICLE_JUNK_ATTR = /(^|[\s_-])(disclaimers?|disclosures?|swiper)($|[\s_-])/i;

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

/** A form inside an article holding less than this share of its text is a sign-up or lead form, not the story. */
export const MAX_ARTICLE_FORM_SHARE = 0.3;

/**
 * Removes forms set inside a story (a sign-up or "get the ebook" form whose field labels and
 * notices are left when its inputs are cut). A form holding much of the article (a page builder
 * wrapping the page in one form) stays. Cost: one `form` query over the article.
 */
export function removeArticleForms(root: DomElement): void {
  const forms = root.querySelectorAll("form");
  if (forms.length === 0) return;
  const total = (root.textContent ?? "").length;
  for (const form of [...forms])
    if (isInside(form, root) && (form.textContent ?? "").length < total * MAX_ARTICLE_FORM_SHARE)
      form.remove();
}

/** A closing biography is followed by less than this share of the story's text... */
export const BIO_TAIL_SHARE = 0.3;
/** ... and holds at least this many words (a byline or a signature is shorter). */
export const MIN_BIO_WORDS = 12;

/** The length of the text that follows `el` inside `root`. */
function textAfter(el: DomElement, root: DomElement): number {
  let after = 0;
  for (let node: DomElement | null = el; node && node !== root; node = node.parentElement)
    for (let next = node.nextSibling; next; next = next.nextSibling) after += (next.textContent ?? "").length;
  return after;
}

/**
 * Removes the author's biography set as a plain paragraph at the end of a story ("Ada Plane is a
 * joiner who writes about ..."): a paragraph followed by less than 30% of the story's text that
 * opens with the full name the page states as its author (two to four words) and goes on with a
 * lower-case word. Bylines are shorter; a name early in the story is the story's subject.
 * Cost: when the page states such an author, one `p` query over the article and a prefix test
 * per paragraph.
 */
export function removeClosingAuthorBio(root: DomElement, author: string | undefined): void {
  const name = (author ?? "").replace(/\s+/g, " ").trim();
  const words = name.split(" ").length;
  if (words < 2 || words > 4 || /[,;&|]| and /i.test(name)) return;
  const opening = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},? \\p{Ll}`, "iu");
  let total = -1;
  for (const p of [...root.querySelectorAll("p")]) {
    const text = (p.textContent ?? "").replace(/\s+/g, " ").trim();
    if (!opening.test(text) || text.split(" ").length < MIN_BIO_WORDS) continue;
    if (total < 0) total = (root.textContent ?? "").length;
    if (textAfter(p, root) < total * BIO_TAIL_SHARE) p.remove();
  }
}
