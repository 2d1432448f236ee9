/**
 * Product pages: the product's own text (name, price, description, specs) without what shops print
 * around it (reviews, questions, other products) or print twice (one copy per viewport, carousel
 * clones, "Loading" placeholders).
 */
import { removeJunkSections } from "./boilerplate";
import type { DomElement } from "./dom-types";
import { isCodeFence, keyWords, markdownWords } from "./markdown";

/** Headings of a product page's sections about something else: reviews, Q&A, other products. */
export const PRODUCT_JUNK_HEADING = new RegExp(
  [
    // Reviews and ratings: "Customer reviews", "Ratings & reviews", "What customers say".
    String.raw`^((top |latest |recent |verified )?(customer|guest|user|buyer|seller|product)?s? ?(reviews?|ratings?( (&|and) reviews?)?|testimonials|feedback)( from .*)?|what (customers|buyers|people|users|curators|critics|others) (are )?say(ing)?|customers say)\b`,
    // Questions: "Questions & answers", "Q&A", "FAQs".
    String.raw`^((customer )?questions?( (&|and) answers?)?|q ?(&|and) ?a|faqs?|frequently asked questions)\b`,
    // Other products: "Featured products", "Complete the look", "Customers also bought".
    String.raw`^((featured|popular|trending|similar|recommended|related|other|more) (products|items)|(complete|shop|get) the look|(your )?recently viewed|browsing history|more to explore|discover more|explore more)\b`,
    String.raw`\b(also (bought|viewed|liked|purchased)|frequently bought)\b`,
    // Offers of more to buy: "Buy a bundle and save!", "Choose your add-ons", "Pairs well with".
    "^(buy (a|the) bundle|bundle (&|and) save|(choose|select|pick) your add-?ons|(recommended |popular )?add-?ons$|complete (the|your) (set|kit)|pairs? (well )?with|goes (well )?with)",
    // The shop's or the maker's news: "Recent events & announcements"; a marketplace's "Did you know?".
    "^((recent |latest )?(news|events|announcements)( (&|and) (news|events|announcements))?$|did you know\\b)",
  ].join("|"),
  "i",
);

/** A section under such a heading goes unless it holds this share of the content (then it is likely the content). */
export const PRODUCT_SECTION_SHARE = 0.4;

/** Removes the sections of the chosen content that are about something other than the product. */
export function removeProductSections(root: DomElement): void {
  removeJunkSections(root, PRODUCT_JUNK_HEADING, PRODUCT_SECTION_SHARE);
}

/** Removes Markdown blocks (paragraphs, headings, lists, tables) that repeat an earlier block word for word. */
export function dropRepeatedBlocks(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    const key = markdownWords(block);
    if (key && seen.has(key)) continue;
    if (key) seen.add(key);
    kept.push(block);
  }
  return kept.join("\n\n");
}

/** On a page of no stated type or an article, a block of at least this many words that repeats an earlier one is a copy. */
export const MIN_REPEATED_BLOCK_WORDS = 25;

/**
 * Removes Markdown blocks of at least MIN_REPEATED_BLOCK_WORDS words that repeat an earlier block
 * word for word: a shop or a listing of no stated type, or an article, may print a text once per
 * layout (desktop, phone, a tab and its accordion twin). Tables and code stay, as do shorter blocks (a
 * listing's cards repeat their labels).
 */
export function dropRepeatedLongBlocks(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  let fenced = false;
  for (const block of markdown.split(/\n{2,}/)) {
    let code: boolean = fenced;
    for (const line of block.split("\n")) if (isCodeFence(line)) [fenced, code] = [!fenced, true];
    const key = code || block.trimStart().startsWith("|") ? "" : markdownWords(block);
    if (keyWords(key) >= MIN_REPEATED_BLOCK_WORDS) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(block);
  }
  return kept.join("\n\n");
}

/** A line of at least this many words that repeats an earlier line is a copy (a phone layout's badges, a feature list printed twice). */
export const MIN_REPEATED_LINE_WORDS = 3;

/**
 * Removes Markdown lines that repeat an earlier line word for word (the same text as a list item
 * and as a paragraph line counts once); table rows, code and lines shorter than
 * MIN_REPEATED_LINE_WORDS words stay. A block left with no line goes.
 */
export function dropRepeatedLines(markdown: string): string {
  const seen = new Set<string>();
  const kept: string[] = [];
  let fenced = false;
  for (const block of markdown.split(/\n{2,}/)) {
    const lines: string[] = [];
    for (const line of block.split("\n")) {
      if (isCodeFence(line)) fenced = !fenced;
      const key = fenced || line.trimStart().startsWith("|") ? "" : markdownWords(line);
      if (keyWords(key) >= MIN_REPEATED_LINE_WORDS) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      lines.push(line);
    }
    if (lines.length) kept.push(lines.join("\n"));
  }
  return kept.join("\n\n");
}
