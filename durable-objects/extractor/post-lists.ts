/**
 * Threads of posts on any page (forums without microdata, comment lists): a run of sibling post
 * containers of one shape. The controls every post repeats word for word (Reply, Report, Quote,
 * Share, "Posts:", "Joined:") are the forum's chrome, not what anyone wrote: they go from every post.
 */

import { firstClassWord, labelOf, widenWhile } from "./dom-shape";
import { textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { isCodeFence, markdownWords } from "./markdown";
import { DATE_LIKE } from "./vocabulary/page-words";
import { POST_ATTR } from "./vocabulary/class-words";

/** A thread has at least this many sibling posts of one shape. */
export const MIN_POSTS = 3;
/** A short text is a control when it repeats in at least this share of the thread's posts. */
export const CONTROL_SHARE = 0.7;
/** A control's text is at most this long (a button or a label, not a sentence someone wrote). */
export const MAX_CONTROL_CHARS = 40;

/** Words holding a digit: numbers and generated keys (`17`, `t1`, `o8nd42m`), which differ from post to post. */
const KEY_WORD = /[a-z\d]*\d[a-z\d]*/gi;

/** A post's shape: tag, first class word and id, keys dropped (`post-17` and `post-18`, `thing_t1_o8nd42m` and `thing_t1_o8n5jvy`, `message is-first` and `message` are one shape). */
const shapeOf = (el: DomElement) =>
  `${el.tagName}.${firstClassWord(el)}#${el.getAttribute("id") ?? ""}`.replace(KEY_WORD, "");

/** The post's own wrapper: the outermost ancestor holding nothing but it (`<div id=edit7><div id=post7>`). */
const unitOf = (el: DomElement, root: DomElement) => widenWhile(el, root, (up) => up.children.length === 1);

/**
 * The threads under root (`classed`: its `[class], [id]` elements): runs of at least MIN_POSTS
 * sibling post containers of one shape (dated, when asked).
 */
export function postRuns(
  root: DomElement,
  dated: boolean,
  classed: Iterable<DomElement> = root.querySelectorAll("[class], [id]"),
): DomElement[][] {
  const runs = new Map<DomElement | null, Map<string, DomElement[]>>();
  const units = new Set<DomElement>();
  for (const el of classed) {
    const label = labelOf(el);
    if (!POST_ATTR.test(label)) continue;
    const unit = unitOf(el, root);
    const parent = unit.parentElement;
    if (!parent || units.has(unit)) continue;
    units.add(unit);
    const shapes = runs.get(parent) ?? new Map<string, DomElement[]>();
    runs.set(parent, shapes);
    const shape = shapeOf(unit);
    shapes.set(shape, [...(shapes.get(shape) ?? []), unit]);
  }
  const out: DomElement[][] = [];
  for (const shapes of runs.values())
    for (const posts of shapes.values())
      if (posts.length >= MIN_POSTS && isThread(posts, dated)) out.push(posts);
  return out;
}

/** Tags of text inside a block (a teaser link, a code comment), never a post. */
const INLINE_TAG = /^(A|SPAN|B|I|EM|STRONG|SMALL|CODE|LABEL|IMG|LI)$/;

/** Posts are dated: at least this share of them shows a time or a date (cards, teasers and FAQ items mostly do not). */
export const DATED_SHARE = 0.7;

/** Whether a run of like blocks is a thread: blocks, most of them dated unless the page says it is a forum. */
function isThread(posts: DomElement[], needsDates: boolean): boolean {
  if (INLINE_TAG.test(posts[0].tagName)) return false;
  if (!needsDates) return true;
  let dated = 0;
  for (const post of posts) if (post.querySelector("time") || DATE_LIKE.test(post.textContent ?? "")) dated++;
  return dated >= posts.length * DATED_SHARE;
}

/** A number as forums print counts (12, 1,076, 2.5k). */
const COUNT = /\b\d+(?:[.,]\d+)*[km]?\b/gi;
/** A labelled line ("Posts: 1,077", "Join Date: Aug 2008"): its label is what repeats, the value differs. */
const LABEL_LINE = /^([^:]{1,24}:)\s*\S/;

/** The repeatable keys of a post's short elements (each once per post): their text, or their label; dates left out. */
function shortTexts(post: DomElement): Map<string, DomElement[]> {
  const texts = new Map<string, DomElement[]>();
  for (const el of post.querySelectorAll("*")) {
    const text = textOf(el);
    if (!text || text.length > MAX_CONTROL_CHARS * 2) continue;
    const label = LABEL_LINE.exec(text)?.[1];
    if (!label && (text.length > MAX_CONTROL_CHARS || DATE_LIKE.test(text))) continue;
    // Counts differ from post to post ("#3", "12 likes", "1,076 posts"): their words are what repeats.
    const key = label ?? text.replace(COUNT, "N");
    if (el.tagName === "TIME" || el.querySelector("time")) continue;
    texts.set(key, [...(texts.get(key) ?? []), el]);
  }
  return texts;
}

/** The label's line: its parent when that holds only the label and a short value, else the label. */
function labelled(label: DomElement): DomElement {
  const line = label.parentElement;
  return line && textOf(line).length <= MAX_CONTROL_CHARS * 2 ? line : label;
}

/** Removes, from every post of each thread, the short texts that nearly every post repeats (its controls); returns the posts of the longest thread, or null. `classed` as for `postRuns`. */
export function removeRepeatedControls(
  root: DomElement,
  dated: boolean,
  classed: Iterable<DomElement> = root.querySelectorAll("[class], [id]"),
): DomElement[] | null {
  let longest: DomElement[] = [];
  for (const posts of postRuns(root, dated, classed)) {
    const perPost = posts.map(shortTexts);
    const seen = new Map<string, number>();
    for (const texts of perPost) for (const text of texts.keys()) seen.set(text, (seen.get(text) ?? 0) + 1);
    const least = Math.max(MIN_POSTS, Math.ceil(posts.length * CONTROL_SHARE));
    for (const texts of perPost)
      for (const [text, els] of texts) {
        if ((seen.get(text) ?? 0) < least) continue;
        // A label standing alone ("Posts:") goes with the value beside it.
        for (const el of els) (textOf(el) === text && text.endsWith(":") ? labelled(el) : el).remove();
      }
    if (posts.length > longest.length) longest = posts;
  }
  return longest.length ? longest : null;
}

/** A quote is dropped when it holds at least this many characters of words (a line or two quoted is context)... */
export const MIN_REPEATED_QUOTE_CHARS = 100;
/** ... and one of its lines of at least this many characters of words is already in the thread above it. */
export const MIN_QUOTE_PROBE_CHARS = 25;

/** A line of a Markdown quote, also when indented inside a list item (code blocks are fenced, never indented). */
const QUOTE_LINE = /^\s*>/;

/** Whether a quote's lines repeat what the thread already said (a reply quoting an earlier post). */
function repeatsEarlier(quote: string[], before: string): boolean {
  const lines = quote.map((l) => markdownWords(l.replace(/^\s*(>\s?)+/, ""))).filter(Boolean);
  if (lines.join(" ").length < MIN_REPEATED_QUOTE_CHARS) return false;
  return lines.some((l) => l.length >= MIN_QUOTE_PROBE_CHARS && before.includes(l));
}

/** Drops, from a thread's Markdown, the quotes that repeat an earlier post word for word (the reply stays). */
export function dropRepeatedQuotes(markdown: string): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  let before = "";
  let fenced = false;
  for (let i = 0; i < lines.length; ) {
    if (isCodeFence(lines[i])) fenced = !fenced;
    if (fenced || !QUOTE_LINE.test(lines[i])) {
      before += ` ${markdownWords(lines[i])}`;
      out.push(lines[i++]);
      continue;
    }
    let end = i;
    while (end < lines.length && QUOTE_LINE.test(lines[end])) end++;
    const quote = lines.slice(i, end);
    if (!repeatsEarlier(quote, before)) out.push(...quote);
    i = end;
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** A block of a thread's Markdown repeating an earlier one is dropped when it holds at least this many characters of words (names and dates repeat). */
export const MIN_REPEATED_BLOCK_CHARS = 80;

/**
 * Drops, from a thread's Markdown, the paragraphs that repeat an earlier paragraph word for word
 * (a reply showing the post it answers, a parent-post preview): the thread keeps each text once.
 * Fenced code and wholly emphasized lines (questions, headings) are left alone.
 */
export function dropRepeatedParagraphs(markdown: string): string {
  const seen = new Set<string>();
  // Paragraphs and list items, their separators kept (odd indexes) so what stays reads as before.
  const parts = markdown.split(PARAGRAPH_BREAK);
  let out = "";
  let fenced = false;
  for (let i = 0; i < parts.length; i += 2) {
    const block = parts[i];
    const fences = block.match(FENCE)?.length ?? 0;
    const inCode = fenced || fences > 0;
    if (fences % 2) fenced = !fenced;
    const key = inCode || EMPHASIZED.test(block) ? "" : markdownWords(block.replace(LIST_MARK, ""));
    if (key.length >= MIN_REPEATED_BLOCK_CHARS) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out += (i && out ? parts[i - 1] : "") + block;
  }
  return out;
}

/** Where a thread's Markdown splits into paragraphs: blank lines (spaces allowed), or a new list item. */
const PARAGRAPH_BREAK = /(\n(?:[ \t]*\n)+|\n(?=[ \t]*(?:[-*+]|\d+\.)[ \t]))/;
/** A list item's marker at the start of a paragraph. */
const LIST_MARK = /^\s*(?:[-*+]|\d+\.)\s+/;
/** A paragraph set in bold or italics whole: a heading or a question, which a page may repeat (an interview asks each guest). */
const EMPHASIZED = /^\s*(?:[-*+]\s+)?(\*\*|__|\*|_)[^\n]*\1\s*$/;
/** A code fence line. */
const FENCE = /^\s*(```|~~~)/gm;
