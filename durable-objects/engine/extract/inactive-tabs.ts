/**
 * Tab sets of link lists ("Trending: 7 days | 1 month | 3 months", "Most read: today | this
 * week"): the page's stylesheet shows the panel marked active and hides its siblings, which
 * hold more lists of the same links. A reader sees one list; the others are alternatives a click
 * away, printed in the markup only. Panels of prose (a service's or a product's tabs) are read
 * whole, as the reader may open each; only panels that are mostly links go.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomElement } from "./dom-types";

/** Class words that mark the shown panel of a tab set. */
const STATE_CLASSES = new Set(["active", "is-active", "current", "is-current", "selected", "is-selected"]);
/** Elements whose class may hold a state word. */
const STATE_QUERY = '[class*="active"], [class*="current"], [class*="selected"]';
/** A panel's own class words name a tab or a pane (`tab`, `tab-pane`, `tabs__panel`, `tabContent`). */
const PANEL_CLASS = /tab|pane/i;
/** An inactive panel is a list of links when links hold at least this share of its text. */
const MIN_LINK_SHARE = 0.6;

/** The class words of an element beside its state words, sorted, as one key. */
function baseClasses(el: DomElement): string {
  const words = (el.getAttribute("class") ?? "").split(/\s+/).filter((w) => w && !STATE_CLASSES.has(w));
  return words.sort().join(" ");
}

/** Whether the element's class words include a state word. */
const isMarkedShown = (el: DomElement) =>
  (el.getAttribute("class") ?? "").split(/\s+/).some((w) => STATE_CLASSES.has(w));

/** Whether a panel is mostly links (a list of them), by its text. */
function isLinkList(el: DomElement): boolean {
  const chars = textLength(el);
  return chars > 0 && linkTextLength(el) >= chars * MIN_LINK_SHARE;
}

/**
 * Removes the hidden panels of tab sets whose panels are lists of links: the siblings of a panel
 * marked shown (`tab active`) that bear its class words but no state word, when each is mostly
 * links. Cost: one query of the chosen content for classes holding a state word; a sibling scan of each.
 */
export function removeInactiveLinkTabs(root: DomElement): void {
  // A substring query is cheaper in linkedom than six class selectors; the state word is then checked whole.
  for (const shown of root.querySelectorAll(STATE_QUERY)) {
    if (!isMarkedShown(shown)) continue;
    const parent = shown.parentElement;
    const key = baseClasses(shown);
    if (!parent || !key || !PANEL_CLASS.test(key)) continue;
    const hidden = Array.from(parent.children).filter(
      (el) => el !== shown && el.tagName === shown.tagName && baseClasses(el) === key && !isMarkedShown(el),
    );
    if (!hidden.length || !isLinkList(shown) || !hidden.every(isLinkList)) continue;
    for (const el of hidden) el.remove();
  }
}
