/**
 * Sign-up boxes: a newsletter's or a mailing list's box inside or beside a story ("Join our
 * newsletter", "Subscribe to get the latest posts sent to your email") is built around a field for
 * an e-mail address. The box is known by that field, not by its words: the largest block around
 * the field that holds no more than a box's few lines of text.
 */
import { PAGE_WRAPPER_TAG } from "./dom-shape";
import { textLength } from "./dom-text";
import type { DomDocument, DomElement } from "./dom-types";
import { markupMay } from "./markup-hints";

/** A sign-up box holds at most this many characters of text (a heading, a line or two, a consent note). */
export const MAX_BOX_CHARS = 400;

/** What parse-page.ts leaves of an e-mail field (every other form control is cut from the text). */
export const EMAIL_FIELD = '<input type="email">';
const EMAIL_FIELD_IN_TEXT = /<input type="email">/;
/** What parse-page.ts leaves of another field a reader fills in (a name, a phone number). */
export const OTHER_FIELD = "<input>";
/** A sign-up box asks for at most this many things (an address, and perhaps a name); more, it is a contact form. */
export const MAX_BOX_FIELDS = 2;
const FIELDS = "input, textarea";

/** Whether the form around `field` asks for more than a sign-up box does (a message, a phone number). */
function asksMore(field: DomElement): boolean {
  const form = field.closest("form");
  if (!form) return false;
  return form.querySelector("textarea") !== null || form.querySelectorAll(FIELDS).length > MAX_BOX_FIELDS;
}

/** The largest block around `field` holding at most MAX_BOX_CHARS characters, or the field itself. */
function boxAround(field: DomElement): DomElement {
  let box = field;
  for (let n = field.parentElement; n && !PAGE_WRAPPER_TAG.test(n.tagName); n = n.parentElement) {
    if (n.querySelector("h1, textarea") || textLength(n) > MAX_BOX_CHARS) break;
    if (n.querySelectorAll(FIELDS).length > MAX_BOX_FIELDS) break;
    // An item of a list outside any form is an item of the content (a product card's "notify me" field).
    if (n.tagName === "LI" && !n.closest("form")) break;
    box = n;
  }
  return box;
}

/** The mark a sign-up box is given before Readability reads the page (which keeps attributes). */
const BOX_MARK = "data-signup-box";

/** Removes the sign-up boxes marked by `markSignupBoxes` from the chosen content. */
export function removeSignupBoxes(root: DomElement): void {
  for (const box of [...root.querySelectorAll(`[${BOX_MARK}]`)]) box.remove();
}

/** Marks every sign-up box of the page: the block around each e-mail field. */
export function markSignupBoxes(doc: DomDocument): void {
  if (!doc.body || !markupMay(doc, EMAIL_FIELD_IN_TEXT)) return;
  const fields = [...doc.body.querySelectorAll("input[type=email]")].filter((f) => !asksMore(f));
  for (const box of fields.map(boxAround)) box.setAttribute(BOX_MARK, "");
}
