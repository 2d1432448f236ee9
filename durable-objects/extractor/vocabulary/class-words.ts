/**
 * The class and id words that rules read: the names templates, CMSs, shop and forum software and
 * ad vendors give their blocks (`sidebar`, `outbrain`, `postbit`, `add-to-cart`). They are markup,
 * not page text, so they are the same whatever the page's language. Each list is
 * regular-expression alternatives with where it comes from (the commit that added it:
 * `git show <hash>` gives the pages and figures it was judged on). `token` lists match whole words
 * of a label (between start, end, spaces, `_` or `-`); `part` lists match anywhere in it.
 */
import type { Words } from "./page-words";

const CLASS_WORDS = {
  /** Boilerplate blocks of a story; `outbrain`, `taboola`, `disqus` are the vendors' widgets. */
  junk: {
    terms:
      "cookie|consent|gdpr|newsletter|subscribe|signup|paywall|promo|advert|ads?|sponsor|social|share|sharing|related|recommend|outbrain|taboola|comments?|disqus|breadcrumbs?|sidebar|nav|navbar|menu|footer|masthead|popup|modal|banner|toolbar|caption|credits?|byline|author|dateline|timestamp|tags|topics|gallery|slideshow|print",
    from: "878e456 (session 3, the first extractor: news templates)",
  },
  /** Blocks of an article that another page type may be about: disclaimers, a carousel's slides. */
  articleJunk: { terms: "disclaimers?|disclosures?|swiper", from: "9387153 (session 5)" },
  /** What is the content on a forum though `junk` names it: posts are comments with authors and times. */
  forumPost: { terms: "comment|author|byline|dateline|timestamp|disqus", from: "215b11f (session 4)" },
  /** Page chrome that is never content, whatever the page type. */
  chrome: {
    terms:
      "cookies?|consent|gdpr|newsletter|signup|sign-up|subscribe|subscription|popup|modal|overlay|breadcrumbs?|skip-link|skiplink|share|sharing|social|socials|share-buttons|announcement|promo-bar|topbar|top-bar|site-header|site-footer|page-header__nav|mega-?menu|navbar|navigation|nav|menu|header-nav|footer|copyright|back-to-top|search-form|searchform|toolbar",
    from: "9ae932c (session 4: the main region beside Readability's article)",
  },
  /** Whole class tokens of hidden text (`hide`: Bootstrap 2, Foundation; prefixed screen-reader classes). */
  hidden: {
    terms:
      "hidden|hide|is-hidden|d-none|invisible|visually-hidden|sr-only|screen-reader-text|[a-z0-9]+-(sr-only|visually-hidden)",
    from: "1b528a6 (session 4)",
  },
  /** Shop and listing widgets beside the page's own content. */
  widgets: {
    terms:
      "filters?|facets?|facet-?list|swatch(es)?|pagination|pager|sort-?by|sorting|upsell|cross-?sell|recently-?viewed|recommendations?|related-products|you-may-also-like|wishlist|quick-?view|mini-?cart|cart-drawer|sidebar|widget-area",
    from: "9ae932c",
  },
  /** Small print: legal notices, disclaimers (`illegal-*` is not one). */
  smallPrint: { terms: "disclaimers?|(^|[\\s_-])legal($|[\\s_-])", from: "33d7034 (session 6)" },
  /** A product page's blocks that are not the product's own text (reviews, other products, badges, selling points). */
  productJunk: {
    terms:
      "reviews?($|[\\s_-])|ratings?($|[\\s_-])|recommend|related-|similar-|also-(viewed|bought)|people-also|you-may-also|recently-viewed|cross-?sell|upsell|sponsored|carousel|questions-and-answers|newsletter|email-signup|badges?($|[\\s_-])|usps?($|[\\s_-])|loyalty|rewards?($|[\\s_-])|footnotes?",
    from: "a599879 (session 4), widened in sessions 5-7 (WCXB product pages)",
  },
  /** A post's own chrome: poster card and stats, signature, action bar, likes (phpBB, vBulletin, vBSEO, XenForo). */
  postChrome: {
    terms:
      "signature|user-?info|user-?card|userextra|user-?stats|post-?actions|post-?toolbar|action-?bar|reply-?button|quick-?reply|likes?-?(button|count)|reactions|badges?($|[\\s_-])|report-?link|user-?title|user-?banner|user-?extras|postprofile|poster-?(info|stats|details)|member-?(title|info|stats|since)|post-?count|expand-?link|last-?edit|post-?likes|liked($|[\\s_-])|likes-?bar|thread-?starter|action-?list|(^|[\\s_-])buttons($|[\\s_-])",
    from: "ada211e (session 6, WCXB forum pages)",
  },
  /** A forum's thread chrome beyond the posts' own: votes, stats box, pager, follow button, related topics. */
  forumJunk: {
    terms:
      "vote(?!d)|related-topics|more-topics|suggested-topics|bottom-?notice|(^|[\\s_-])stats($|[\\s_-])|pager|pagination|page-?nav|topic-?meta|follow",
    from: "ada211e and later forum commits of sessions 6-11",
  },
  /** The blocks a shop wraps its grid in with its filters or pager. */
  gridWrapper: {
    terms: "filter(s|ing)?|facets?|pagination|pager|sort(ing|-?by)?",
    from: "7463cb1 (session 6)",
  },
  /** A card's badges: a short mark over the card. */
  cardBadges: { terms: "badges?|stickers?|ribbons?|flags?", from: "e8780d0 (session 6)" },
  /** A discussion (comments, replies, reviews): its posts are not cards. */
  discussion: { terms: "comment|repl(y|ies)|review|discussion", from: "fcb5e70 (session 4)" },
  /** Controls ("skip to content", "read more"): junk only as a short link or button. */
  shortControls: { terms: "skip|more", from: "b545ed5 (session 4)" },
  skip: { terms: "skip", from: "b545ed5" },
  /** The body of a collapsed accordion or tab (the answer of an FAQ). */
  folded: { terms: "accordion|collapsible|expandable|faq|tab-?pane|tab-?content", from: "b545ed5" },
  /** Slides copied by a carousel script (the same text again). */
  copied: { terms: "clone|cloned|duplicate", from: "e124f71 (session 4)" },
  /** A post container (a part of a label: `postbit`, `message-cell`, `comment-node`). */
  post: { terms: "post|message|comment|repl(y|ies)|answer", from: "215b11f (session 4)" },
  /** Parts of a page that a layout state names (`has-sidebar`, `comments-enabled`). */
  layoutParts: {
    terms: "sidebars?|comments?|related|share|social|tags|author|byline|footer|nav|menu",
    from: "a58848f (session 7)",
  },
  /** A consent manager's blocks (cookie banners, GDPR dialogs: the OneTrust, Didomi and site-made ones alike). */
  consent: { terms: "cookies?|consent|gdpr", from: "session 20 (x33l): consent managers kept as content" },
  /** What shows a block over the page: the consent manager's own box. */
  overlay: { terms: "modal|popup|overlay|banner|dialog", from: "session 20 (x33l)" },
} satisfies Record<string, Words>;

/** A label holding one of the list's words whole. */
const token = (words: Words) => new RegExp(String.raw`(^|[\s_-])(${words.terms})($|[\s_-])`, "i");
/** A label holding one of the list's words anywhere. */
const part = ({ terms }: { terms: string }) => new RegExp(terms, "i");

export const JUNK_ATTR = token(CLASS_WORDS.junk);
export const ARTICLE_JUNK_ATTR = token(CLASS_WORDS.articleJunk);
export const FORUM_POST_ATTR = part(CLASS_WORDS.forumPost);
export const CHROME_ATTR = token(CLASS_WORDS.chrome);
export const CONSENT_ATTR = token(CLASS_WORDS.consent);
export const OVERLAY_ATTR = token(CLASS_WORDS.overlay);
export const HIDDEN_CLASS = new RegExp(String.raw`(^|\s)(${CLASS_WORDS.hidden.terms})(\s|$)`, "i");
export const WIDGET_ATTR = token(CLASS_WORDS.widgets);
export const SMALL_PRINT_ATTR = part(CLASS_WORDS.smallPrint);
export const PRODUCT_JUNK_ATTR = part({
  terms: `${CLASS_WORDS.productJunk.terms}|${SMALL_PRINT_ATTR.source}`,
});
export const FORUM_JUNK_ATTR = part({
  terms: `${CLASS_WORDS.postChrome.terms}|${CLASS_WORDS.forumJunk.terms}`,
});
export const GRID_WRAPPER_ATTR = token(CLASS_WORDS.gridWrapper);
export const CARD_BADGE_ATTR = token(CLASS_WORDS.cardBadges);
export const DISCUSSION_ATTR = part(CLASS_WORDS.discussion);
export const SHORT_JUNK_ATTR = token(CLASS_WORDS.shortControls);
export const SKIP_ATTR = new RegExp(String.raw`(^|[\s_-])${CLASS_WORDS.skip.terms}($|[\s_-])`, "i");
export const FOLDED_CLASS = token(CLASS_WORDS.folded);
export const COPIED = token(CLASS_WORDS.copied);
export const POST_ATTR = part(CLASS_WORDS.post);
const layout = CLASS_WORDS.layoutParts.terms;
/**
 * Class tokens that state what a layout holds or shows (`has-sidebar`, `no-comments`,
 * `sidebar-enabled--false`), and a slider's style of its arrows or dots (`slider-nav-arrows`).
 */
export const LAYOUT_STATE = new RegExp(
  String.raw`(?:^|\s)(?:(?:has|no|with|without)-(?:${layout})|(?:${layout})-(?:enabled|disabled)|[\w-]+-nav-(?:btns?|buttons?|arrows?|dots))[^\s]*(?=\s|$)`,
  "gi",
);
