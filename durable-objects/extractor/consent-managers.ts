/**
 * Consent managers: the cookie banner or GDPR dialog a page prints over itself, with its long notice and its
 * choices by purpose. It is never the content, but it may hold more text than a short page (a thread of a few
 * posts, a listing of titles): the share guards of the chrome pass keep it there, and on a page read as an
 * article Readability may take it. It is known by its markup: a block whose class or id names consent, that
 * is a dialog (by role or by its label) or holds one. Words of the page are not read.
 */
import { DIALOG_SELECTOR, labelOf, PAGE_WRAPPER_TAG } from "./dom-shape";
import type { DomElement } from "./dom-types";
import { labelNames } from "./junk-labels";
import { markupMay } from "./markup-hints";
import { LABELLED, stillUnder } from "./page-walk";
import { CONSENT_ATTR, OVERLAY_ATTR } from "./vocabulary/class-words";

/** The text of a page that may hold a consent manager (a test of the HTML before any walk). */
const MAY_HOLD_CONSENT = /cookie|consent|gdpr/i;

/** Whether the element is a consent manager's box: labelled consent, and a dialog or holding one. */
function isConsentManager(el: DomElement): boolean {
  const label = labelOf(el);
  if (!labelNames(CONSENT_ATTR, label) || PAGE_WRAPPER_TAG.test(el.tagName)) return false;
  if (el.querySelector("main, article, [role=main]")) return false;
  if (labelNames(OVERLAY_ATTR, label) || el.matches(DIALOG_SELECTOR)) return true;
  return el.querySelector(DIALOG_SELECTOR) !== null;
}

/** Removes the page's consent managers; `elements` are the body's elements in document order. */
export function removeConsentManagers(body: DomElement, elements: DomElement[]): void {
  if (!markupMay(body, MAY_HOLD_CONSENT)) return;
  for (const el of elements)
    if (LABELLED.test(el) && stillUnder(el, body) && isConsentManager(el)) el.remove();
}
