/**
 * Threads of posts on any page (forums without microdata, comment lists): a run of sibling post
 * containers of one shape. The controls every post repeats word for word (Reply, Report, Quote,
 * Share, "Posts:", "Joined:") are the forum's chrome, not what anyone wrote: they go from every post.
 */

import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Class/id words of a post container (a substring: `postbit`, `message-cell`, `comment-node`). */
const POST_ATTR = /post|message|comment|repl(y|ies)|answer/i;
/** A thread has at least this many sibling posts of one shape. */
export const MIN_POSTS = 3;
/** A short text is a control when it repeats in at least this share of the thread's posts. */
export const CONTROL_SHARE = 0.7;
/** A control's text is at most this long (a button or a label, not a sentence someone wrote). */
export const MAX_CONTROL_CHARS = 40;
/** Dates and times repeat in a thread written in one day: they are kept. */
const DATE_LIKE =
  /\d{1,4}\s*[/.:-]\s*\d|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\bago\b/i;

const squash = (el: DomElement) => (el.textContent ?? "").replace(/\s+/g, " ").trim();

/** A post's shape: tag, class and id with digits dropped (`post-17` and `post-18` are one shape). */
const shapeOf = (el: DomElement) =>
  `${el.tagName}.${el.getAttribute("class") ?? ""}#${el.getAttribute("id") ?? ""}`.replace(/\d+/g, "");

/** The post's own wrapper: the outermost ancestor holding nothing but it (`<div id=edit7><div id=post7>`). */
function unitOf(el: DomElement, root: DomElement): DomElement {
  let unit = el;
  while (unit.parentElement && unit.parentElement !== root && unit.parentElement.children.length === 1)
    unit = unit.parentElement;
  return unit;
}

/** The runs of sibling post containers under root, each of at least MIN_POSTS posts of one shape. */
export function postRuns(root: DomElement): DomElement[][] {
  const runs = new Map<DomElement, Map<string, DomElement[]>>();
  const units = new Set<DomElement>();
  for (const el of root.querySelectorAll("[class], [id]")) {
    const label = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
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
    for (const posts of shapes.values()) if (posts.length >= MIN_POSTS) out.push(posts);
  return out;
}

/** A labelled line ("Posts: 1,077", "Join Date: Aug 2008"): its label is what repeats, the value differs. */
const LABEL_LINE = /^([^:]{1,24}:)\s*\S/;

/** The repeatable keys of a post's short elements (each once per post): their text, or their label; dates left out. */
function shortTexts(post: DomElement): Map<string, DomElement[]> {
  const texts = new Map<string, DomElement[]>();
  for (const el of post.querySelectorAll("*")) {
    const text = squash(el);
    if (!text || text.length > MAX_CONTROL_CHARS * 2) continue;
    const key = LABEL_LINE.exec(text)?.[1] ?? (text.length <= MAX_CONTROL_CHARS ? text : "");
    if (!key || (key === text && DATE_LIKE.test(text))) continue;
    if (el.tagName === "TIME" || el.querySelector("time")) continue;
    texts.set(key, [...(texts.get(key) ?? []), el]);
  }
  return texts;
}

/** The label's line: its parent when that holds only the label and a short value, else the label. */
function labelled(label: DomElement): DomElement {
  const line = label.parentElement;
  return line && squash(line).length <= MAX_CONTROL_CHARS * 2 ? line : label;
}

/** Removes, from every post of each thread, the short texts that nearly every post repeats (its controls); returns the characters of the page's longest post (0: no thread). */
export function removeRepeatedControls(root: DomElement): number {
  let longest = 0;
  for (const posts of postRuns(root)) {
    const perPost = posts.map(shortTexts);
    const seen = new Map<string, number>();
    for (const texts of perPost) for (const text of texts.keys()) seen.set(text, (seen.get(text) ?? 0) + 1);
    const least = Math.max(MIN_POSTS, Math.ceil(posts.length * CONTROL_SHARE));
    for (const texts of perPost)
      for (const [text, els] of texts) {
        if ((seen.get(text) ?? 0) < least) continue;
        // A label standing alone ("Posts:") goes with the value beside it.
        for (const el of els) (squash(el) === text && text.endsWith(":") ? labelled(el) : el).remove();
      }
    for (const post of posts) longest = Math.max(longest, textLength(post));
  }
  return longest;
}

/** A quote is dropped when it holds at least this many characters of words (a line or two quoted is context)... */
export const MIN_REPEATED_QUOTE_CHARS = 100;
/** ... and one of its lines of at least this many characters of words is already in the thread above it. */
export const MIN_QUOTE_PROBE_CHARS = 25;

const wordsOf = (line: string) =>
  (
    line
      .replace(/\]\([^)]*\)/g, "]")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(" ");

/** Whether a quote's lines repeat what the thread already said (a reply quoting an earlier post). */
function repeatsEarlier(quote: string[], before: string): boolean {
  const lines = quote.map((l) => wordsOf(l.replace(/^(>\s?)+/, ""))).filter(Boolean);
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
    if (/^\s*(```|~~~)/.test(lines[i])) fenced = !fenced;
    if (fenced || !lines[i].startsWith(">")) {
      before += ` ${wordsOf(lines[i])}`;
      out.push(lines[i++]);
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end].startsWith(">")) end++;
    const quote = lines.slice(i, end);
    if (!repeatsEarlier(quote, before)) out.push(...quote);
    i = end;
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}
