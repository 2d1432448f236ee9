/**
 * The slides of a carousel that are scrolled out of view: a slider (slick, swiper, a page
 * builder's testimonials) flags every slide but the shown one `aria-hidden="true"`, and the
 * reader pages through them with its arrows. A slide that holds prose (a customer's quote, a
 * card's description) is content, as a folded accordion panel is; the copies a looping slider
 * prints of its first and last slides (`slick-cloned`) are not.
 */
import { firstClassWord } from "./dom-shape";
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A hidden slide holding at least this many characters of non-link text is content. */
export const MIN_SLIDE_PROSE = 150;
/** ... when less than this share of its text is link text (a card of links is a menu or a product tile). */
export const MAX_SLIDE_LINK_SHARE = 0.3;
/** Class words of a slide (`slick-slide`, `swiper-slide`, `carousel-item`, `bp-Carousel__cell`). */
const SLIDE_CLASS = /slide|carousel/i;
/** Class words of the copies a looping slider prints of its slides. */
const SLIDE_COPY = /clone|duplicate/i;

/** Whether a sibling of the same tag and first class token is shown: el is one page of a slider. */
function hasShownTwin(el: DomElement): boolean {
  const parent = el.parentElement;
  const cls = firstClassWord(el);
  if (!parent || !cls) return false;
  for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
    if (s === el || s.tagName !== el.tagName || firstClassWord(s) !== cls) continue;
    if (s.getAttribute("aria-hidden") !== "true") return true;
  }
  return false;
}

/**
 * Whether an `aria-hidden="true"` element is a slide of a carousel scrolled out of view that holds
 * prose: it is labelled a slide (class words or `aria-roledescription`), a sibling slide like it (same tag, same first class token) is shown, it is no slider's
 * loop copy, and it holds MIN_SLIDE_PROSE characters of non-link text. Cost: a sibling scan and a
 * text measure, on the aria-hidden elements only.
 */
export function isProseSlide(el: DomElement): boolean {
  if (el.getAttribute("aria-hidden") !== "true") return false;
  const cls = el.getAttribute("class") ?? "";
  if (!SLIDE_CLASS.test(cls) && el.getAttribute("aria-roledescription") !== "slide") return false;
  if (SLIDE_COPY.test(cls) || !hasShownTwin(el)) return false;
  const chars = textLength(el);
  const links = linkTextLength(el);
  return chars - links >= MIN_SLIDE_PROSE && links < chars * MAX_SLIDE_LINK_SHARE;
}

/** Shows the prose slides among `hidden` (aria-hidden elements), so that no pass reads them as hidden. */
export function showProseSlides(hidden: DomElement[]): void {
  for (const el of hidden) if (isProseSlide(el)) el.removeAttribute("aria-hidden");
}
