/**
 * Rules for articles read by Readability: figures that hold text (tables, quotes, code) stay
 * while picture captions go.
 */
import type { DomElement } from "./dom-types";

/** What makes a `<figure>` part of the text rather than a picture with its caption. */
const TEXT_FIGURE = "table, blockquote, pre";

/** Removes captions, dates and picture figures; a figure holding a table, a quote or code is text and stays. */
export function removeFigures(root: DomElement): void {
  for (const el of [...root.querySelectorAll("figure")]) if (!el.querySelector(TEXT_FIGURE)) el.remove();
  for (const el of [...root.querySelectorAll("figcaption, time")]) el.remove();
}
