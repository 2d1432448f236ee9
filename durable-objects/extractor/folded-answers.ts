/**
 * FAQ accordions built without ARIA: each answer is a block hidden by an inline style, its class
 * naming an FAQ or accordion part (`faq__answer`, `accordion-body`), right after its question, a
 * block named the same way (`faq__question`). The answers are content, folded until the reader
 * opens them; with no control or role to name them, the class words and the pairing do.
 */
import type { DomElement } from "./dom-types";
import { MIN_FOLDED_PANELS } from "./folded-content";
import { isFoldedByClass } from "./junk-labels";

const isFolded = (el: DomElement | null) => el !== null && isFoldedByClass(el.getAttribute("class") ?? "");

/**
 * The answers among the chrome candidates (elements hidden by style or flag): a folded-class block
 * right after a folded-class sibling; none unless the page has at least two (an accordion, not one
 * toggle). Cost: a class test on the hidden elements the chrome walk already lists.
 */
export function classFoldedAnswers(hidden: DomElement[]): Set<DomElement> {
  const answers = new Set(hidden.filter((el) => isFolded(el.previousElementSibling) && isFolded(el)));
  return answers.size >= MIN_FOLDED_PANELS ? answers : new Set();
}
