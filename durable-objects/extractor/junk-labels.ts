/**
 * What a block's class/id words say about it, read with care: layout states are no labels, "skip"
 * and "more" name links and buttons (short), and a class-hidden accordion panel is folded content.
 */
import { textLength } from "./dom-text";
import type { DomElement } from "./dom-types";
import { FOLDED_CLASS, LAYOUT_STATE, SHORT_JUNK_ATTR } from "./vocabulary/class-words";

/**
 * Whether a label names what `words` name, read without its layout-state tokens (`has-sidebar`
 * on the page's container is not a sidebar). The states are read only when the words match, so
 * the labels of most elements cost one test.
 */
export const labelNames = (words: RegExp, label: string) =>
  words.test(label) && words.test(label.replace(LAYOUT_STATE, " "));

/** A block labelled by SHORT_JUNK_ATTR is a control when its text is at most this long; longer, it is what the control reveals. */
export const MAX_CONTROL_CHARS = 100;

/** Whether the element is a "skip" or "more" control (short), not the content it skips to or unfolds. */
export const isShortControl = (el: DomElement, label: string, words = SHORT_JUNK_ATTR) =>
  words.test(label) && textLength(el) <= MAX_CONTROL_CHARS;

/** Whether a class-hidden element is a folded accordion or tab panel (content), not a hidden duplicate. */
export const isFoldedByClass = (className: string) => FOLDED_CLASS.test(className);
