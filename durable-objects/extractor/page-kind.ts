/**
 * What kind of page this is, from what it says of itself (JSON-LD `@type`, microdata `itemtype`,
 * `og:type`): an article is read by Readability; forums, products and the rest also by their main region.
 */
import type { DomDocument } from "./dom-types";
import { markupMay } from "./markup-hints";
import { type LdNode, ldIs } from "./metadata";

/** The page kinds the extractor treats differently. */
export type PageKind = "article" | "forum" | "product" | "other";

const FORUM = /^(discussionforumposting|qapage|question|answer|socialmediaposting|comment)$/i;
/** The thread types that are not also an FAQ's parts (its Question and Answer items). */
const THREAD = /^(discussionforumposting|qapage|socialmediaposting|comment)$/i;
const FAQ = /^faqpage$/i;
const PRODUCT = /^(product|productgroup|offer|individualproduct)$/i;
const ARTICLE =
  /^(article|newsarticle|blogposting|reportagenewsarticle|analysisnewsarticle|opinionnewsarticle|scholarlyarticle|liveblogposting|report)$/i;

/**
 * Keys of a Product that states only what a search result's stars need (SEO plugins mark up a
 * service or a local business this way): nothing of a sale (offers, sku, brand, gtin...).
 */
const RATING_SNIPPET_KEY = /^(@context|@id|@type|name|description|url|image|aggregateRating|review)$/;

/** Whether a Product node is only a rating snippet: its name and ratings, nothing sold. */
const isRatingSnippet = (n: LdNode) =>
  ("aggregateRating" in n || "review" in n) && Object.keys(n).every((k) => RATING_SNIPPET_KEY.test(k));

/** Microdata types are read only when the page's text names the attribute. */
const ITEMTYPE = /itemtype/i;

const isNode = (v: unknown): v is LdNode => !!v && typeof v === "object" && !Array.isArray(v);

/** The page's kind by its own statements; "other" when it states none of them. */
export function pageKind(doc: DomDocument, ld: LdNode[]): PageKind {
  // A WebPage states what it is about in its mainEntity (a thread, a question, a product).
  const types = [...ld, ...ld.map((n) => n.mainEntity).filter(isNode)].filter((n) => n["@type"]);
  const micro = [...(markupMay(doc, ITEMTYPE) ? doc.querySelectorAll("[itemtype]") : [])].map((el) =>
    (el.getAttribute("itemtype") ?? "").replace(/^.*schema\.org\//i, ""),
  );
  const has = (re: RegExp, unless?: (n: LdNode) => boolean) =>
    types.some((n) => ldIs(n, re) && !unless?.(n)) || micro.some((t) => re.test(t));
  // Questions and answers on an FAQPage are the publisher's own FAQ (a shop's or a firm's "Common
  // questions"), not a thread of posts: there only the other thread types count.
  if (has(has(FAQ) ? THREAD : FORUM)) return "forum";
  // A Product with ratings and nothing for sale is a service's or a business's review stars.
  if (has(PRODUCT, isRatingSnippet)) return "product";
  // og:type "article" counts too, though CMSs print it on listings and shops as well: for those
  // pages Readability's reading is kept unless it finds too little (a known cost on the WCXB set).
  const og = doc.querySelector("meta[property='og:type']")?.getAttribute("content")?.toLowerCase();
  return has(ARTICLE) || og === "article" ? "article" : "other";
}
