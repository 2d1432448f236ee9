/**
 * HTML landmarks as assistive technology reads them: a `<header>` is the page's banner only when
 * it is not inside sectioning content; inside an `<article>`, `<section>`, `<main>`, `<aside>` or
 * `<nav>` it heads that part (a hero's heading and lead, a section's title and intro).
 */
import type { DomElement } from "./dom-types";

/** Sectioning content (and `<main>`) that scopes a `<header>` to itself. */
const SECTIONING = "article, aside, main, nav, section";

/** Whether the element is a `<header>` of a part of the page, not the page's banner. */
export function isSectionHeader(el: DomElement): boolean {
  if (el.tagName !== "HEADER" || el.getAttribute("role") === "banner") return false;
  for (let n = el.parentElement; n; n = n.parentElement) if (n.matches(SECTIONING)) return true;
  return false;
}
