/**
 * What a parsed page's markup can hold, read from the HTML text it was parsed from: a step that
 * looks for an attribute the text never names skips its walk of the tree. An attribute's name
 * cannot be escaped, so a name absent from the text is absent from every element; the patterns
 * are case-insensitive supersets of what the steps' selectors match.
 */
import type { DomDocument, DomElement } from "./dom-types";

/** The text a document was parsed from and the answers already read from it. */
interface Markup {
  html: string;
  seen: Map<RegExp, boolean>;
}

const markups = new WeakMap<object, Markup>();

/** Remembers the HTML text a document was parsed from (with any attributes a repair added spelled out in it). */
export function rememberMarkup(doc: DomDocument, html: string): void {
  markups.set(doc, { html, seen: new Map() });
}

/** Whether the markup of the node's document may match `pattern`: true unless its text is known and does not. */
export function markupMay(node: DomElement | DomDocument, pattern: RegExp): boolean {
  const owner = (node as { ownerDocument?: object | null }).ownerDocument;
  const markup = markups.get(owner ?? node);
  if (!markup) return true;
  let hit = markup.seen.get(pattern);
  if (hit === undefined) {
    pattern.lastIndex = 0;
    hit = pattern.test(markup.html);
    markup.seen.set(pattern, hit);
  }
  return hit;
}
