/** Text measures shared by the extraction steps: lengths with whitespace folded, as a reader sees the text. */
import type { DomElement, DomNode } from "./dom-types";

/** DOM node types the text walks tell apart. */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_NODE = 4;

/** The whitespace code units from 160 up, beside the range 0x2000-0x200a. */
const WIDE_SPACES = new Set([160, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);

/** Whether a UTF-16 code unit is whitespace to `\s` in a regular expression. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  return c >= 160 && ((c >= 0x2000 && c <= 0x200a) || WIDE_SPACES.has(c));
}

/** The length of `text` with whitespace runs folded to one space and the ends trimmed, without building that string. */
export function foldedLength(text: string): number {
  let n = 0;
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) gap = n > 0;
    else {
      n += gap ? 2 : 1;
      gap = false;
    }
  }
  return n;
}

/** The text with whitespace runs folded to one space and the ends trimmed, as a reader sees it. */
export const foldText = (text: string) => text.replace(/\s+/g, " ").trim();

/** A text's words, lower-cased, one space between them (every run of other characters is one space). */
export const lowerWords = (text: string) => foldText(text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " "));

/** The element's text, whitespace folded and trimmed. */
export const textOf = (el: DomElement) => foldText(el.textContent ?? "");

/** Characters of the element's text, whitespace folded and trimmed. */
export const textLength = (el: DomElement) => foldedLength(el.textContent ?? "");

/**
 * The element's `textLength`, measured when first asked and then kept: a pass that finds nothing to
 * remove never reads the whole text. Ask it before the pass changes the tree (its first removal
 * always follows a comparison with it), so that it is the length before the pass.
 */
export function lazyTextLength(el: DomElement, measure = textLength): () => number {
  let n = -1;
  return () => {
    if (n < 0) n = measure(el);
    return n;
  };
}

/** Characters of the text of the element's links, measured as `textLength`. */
export function linkTextLength(el: DomElement): number {
  let n = 0;
  for (const a of el.querySelectorAll("a")) n += textLength(a);
  return n;
}

/**
 * The element's text, folded and trimmed, when it has at most `max` characters that are not
 * whitespace; otherwise null. It stops reading as soon as the text is longer, so asking it of a
 * block that holds the whole page costs no more than asking it of a line.
 */
export function shortText(el: DomElement, max: number): string | null {
  const parts: string[] = [];
  let solid = 0;
  const visit = (node: DomNode): boolean => {
    // Sibling links, not `childNodes` (which builds a list of the children on every call).
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_NODE) {
        const data = child.textContent ?? "";
        for (let i = 0; i < data.length; i++) if (!isSpace(data.charCodeAt(i))) solid++;
        if (solid > max) return false;
        parts.push(data);
      } else if (child.nodeType === ELEMENT_NODE && !visit(child)) return false;
    }
    return true;
  };
  return visit(el) ? foldText(parts.join("")) : null;
}
