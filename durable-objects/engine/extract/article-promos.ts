/**
 * Blocks a CMS sets inside an article's text that are about the site, not the story: the author's
 * box (schema.org `author` microdata holding a biography), the site's standing disclaimer, a
 * carousel of other posts, a sign-up form.
 */

/**
 * Class/id words of blocks that are boilerplate beside a story (the site's standing disclaimer or
 * affiliate disclosure) but may be what a legal or service page is about, and a carousel's slides
 * (`swiper`: other posts or products shown beside the story): junk on articles only.
 */
export const ARTICLE_JUNK_ATTR = /(^|[\s_-])(disclaimers?|disclosures?|swiper)($|[\s_-])/i;
