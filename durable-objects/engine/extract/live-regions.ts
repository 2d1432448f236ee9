/**
 * What a page announces to screen readers about its own state: a live region (`role=status`,
 * `role=alert`, `aria-live`) that a script fills as the reader acts ("loaded 338 results", "Slide
 * 1 of 8", "Thank you for your feedback", "Loading"). Its text is a message about the page, not
 * the page's content. A live region that holds a block of text (a carousel's slides, a callout)
 * or a price (a variant's price updated in place) or a heading is content and stays.
 */
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Live regions that announce a state (a chat `log` is a thread's messages, so it is not one). */
const ANNOUNCER = "[role=status], [role=alert], [aria-live=polite], [aria-live=assertive]";
/** An announcement is at most this long; a longer live region holds content. */
export const MAX_ANNOUNCEMENT_CHARS = 80;

const PRICE = /[$€£¥₹]\s?\d|\d\s?(€|EUR|USD|GBP|zł|kr)\b/;
const HEADING = "h1, h2, h3, h4, h5, h6, [role=heading]";

/**
 * Removes root's short announcements: live regions of at most MAX_ANNOUNCEMENT_CHARS of text, no
 * price, not a heading nor holding one. Cost: one query of root; a text measure per live region.
 */
export function removeAnnouncements(root: DomElement): void {
  for (const el of [...root.querySelectorAll(ANNOUNCER)]) {
    if (!el.parentNode || el.getAttribute("role") === "heading" || /^H[1-6]$/.test(el.tagName)) continue;
    if (textLength(el) > MAX_ANNOUNCEMENT_CHARS) continue;
    const text = el.textContent ?? "";
    if (PRICE.test(text) || el.querySelector(HEADING)) continue;
    el.remove();
  }
}
