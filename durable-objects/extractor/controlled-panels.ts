/**
 * Panels a control opens through `aria-controls` (the WAI-ARIA accordion and disclosure pattern):
 * the answers of an FAQ, the body of a "how to choose" guide folded under its question. Their
 * toggles are buttons, which are cut from the HTML text before parsing, so the ids they name are
 * read from the raw HTML; a hidden element with such an id is given the panel role the pattern
 * prescribes (`region`), and the folded-panel steps then treat it as content.
 */
import { linkTextLength, textLength } from "./dom-text";
import type { DomDocument } from "./dom-types";
import { FOLDED_HIDING } from "./folded-content";

/** The ids a control names (`aria-controls="a b"`); a literal prefix keeps the scan of the HTML text fast. */
const CONTROLS = /aria-controls=["']?([^"'>]+)/g;
/** Controls open content only as an accordion or a tab set: at least this many panels. */
export const MIN_CONTROLLED_PANELS = 2;
/** A panel whose text is at least this share link text is a menu or a link list (a dropdown), not an answer. */
export const MAX_PANEL_LINK_SHARE = 0.5;
/** The ids named by `aria-controls` anywhere in the page's HTML. */
function controlledIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const m of html.matchAll(CONTROLS)) for (const id of m[1].split(/\s+/)) if (id) ids.add(id);
  return ids;
}

/** Marks the hidden panels that the page's controls open (prose, not menus) as `role=region`; returns whether it marked any. */
export function markControlledPanels(doc: DomDocument, html: string): boolean {
  if (!html.includes("aria-controls")) return false;
  const ids = controlledIds(html);
  if (ids.size < MIN_CONTROLLED_PANELS) return false;
  // Hidden elements with a named id, in one walk of the elements with an id (the hiding test runs
  // on the named ones only, not on every element).
  const panels = [...doc.querySelectorAll("[id]")].filter(
    (el) => ids.has(el.getAttribute("id") ?? "") && el.matches(FOLDED_HIDING) && !el.hasAttribute("role"),
  );
  if (panels.length < MIN_CONTROLLED_PANELS) return false;
  const prose = panels.filter((el) => {
    const text = textLength(el);
    return text > 0 && linkTextLength(el) < text * MAX_PANEL_LINK_SHARE;
  });
  for (const el of prose) el.setAttribute("role", "region");
  return prose.length > 0;
}
