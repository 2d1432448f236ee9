/**
 * Screen-reader text beside a visual twin: a shop prints a price twice, once for the eye
 * (`<del aria-hidden="true">$30.00</del>`) and once spoken (`<span class="screen-reader-text">
 * Original price was: $30.00.</span>`). The visual copy goes as hidden from assistive technology;
 * its spoken twin then carries the text and is kept, though its class reads as hidden.
 */
import type { DomElement } from "./dom-types";

/** Whole class tokens of text shown to screen readers only (a design system's prefixed `h-sr-only` too). */
const SPOKEN_CLASS = /(^|\s)([a-z0-9]+-)?(sr-only|visually-hidden)(\s|$)|(^|\s)screen-reader-text(\s|$)/i;
/** A twin worth speaking shows a letter or digit (an icon or a row of stars does not). */
const WORDS = /[\p{L}\p{N}]/u;

/** The screen-reader-only sibling that speaks what an `aria-hidden` element shows, or null. */
export function spokenTwin(el: DomElement): DomElement | null {
  if (el.getAttribute("aria-hidden") !== "true" || !WORDS.test(el.textContent ?? "")) return null;
  for (const sibling of [el.nextElementSibling, el.previousElementSibling])
    if (sibling && SPOKEN_CLASS.test(sibling.getAttribute("class") ?? "")) return sibling;
  return null;
}
