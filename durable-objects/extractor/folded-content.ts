/**
 * Text a page hides only until the reader asks for it, or only at some screen widths: the answers
 * of a collapsed FAQ accordion, the panels of tabs, blocks a utility-class framework shows or hides
 * from a breakpoint up (`hidden md:block`, `lg:hidden`). The page is read as a desktop shows it.
 */
import type { DomElement } from "./dom-types";
import { COPIED } from "./vocabulary/class-words";

/** Breakpoint prefixes of utility-class frameworks that apply at a desktop width, smallest first. */
const DESKTOP_BREAKPOINTS = ["sm", "md", "lg", "xl"];
/** A display utility class, bare or behind a breakpoint prefix (`hidden`, `md:block`, `lg:hidden`). */
const DISPLAY_TOKEN =
  /^(?:(sm|md|lg|xl):)?(hidden|block|flex|grid|inline|inline-block|inline-flex|table|contents)$/;
/** Roles of a panel a control opens (an accordion's answer, a tab's page). */
const PANEL_ROLE = /^(region|tabpanel)$/i;
/** Roles of a window over the page (a dialog is chrome even when labelled). */
const DIALOG_ROLE = /^(dialog|alertdialog)$/i;
/** Folded panels count as content only when the page has at least this many (an accordion or a tab set, not one toggle). */
export const MIN_FOLDED_PANELS = 2;

/**
 * How the element's display utilities leave it on a desktop: "shown" or "hidden" when a breakpoint
 * class decides it (the widest breakpoint wins), null when no breakpoint class speaks.
 */
export function desktopDisplay(el: DomElement): "shown" | "hidden" | null {
  let rank = 0;
  let state: "shown" | "hidden" | null = null;
  for (const token of (el.getAttribute("class") ?? "").split(/\s+/)) {
    const m = DISPLAY_TOKEN.exec(token);
    if (!m?.[1]) continue;
    const r = DESKTOP_BREAKPOINTS.indexOf(m[1]) + 1;
    if (r >= rank) [rank, state] = [r, m[2] === "hidden" ? "hidden" : "shown"];
  }
  return state;
}

/** Whether a hidden element is a folded panel: labelled by its control or in a panel role, not a dialog or a carousel's copy. */
export function isFoldedPanel(el: DomElement): boolean {
  const role = el.getAttribute("role") ?? "";
  if (COPIED.test(el.getAttribute("class") ?? "") || DIALOG_ROLE.test(role) || el.hasAttribute("aria-modal"))
    return false;
  return el.hasAttribute("aria-labelledby") || PANEL_ROLE.test(role);
}

/** Whether the element sits in a popover (shown only when its control opens it: a prompt, not content). */
export const inPopover = (el: DomElement) => el.closest("[popover]") !== null;

/**
 * The hidden folded panels under root that are content: none unless the page has enough panels to
 * be an accordion or tabs. `candidates` are root's `[aria-labelledby], [role=region], [role=tabpanel]`
 * descendants; a panel is hidden when it or its wrapper matches `hidden`.
 */
export function foldedPanels(root: DomElement, hidden: string, candidates: DomElement[]): Set<DomElement> {
  const all = candidates.filter((el) => isFoldedPanel(el) && !inPopover(el));
  if (all.length < MIN_FOLDED_PANELS) return new Set();
  // Each panel and its wrapper are tested (a query of `hidden` would walk the whole root).
  const isHidden = (el: DomElement) => el !== root && el.matches(hidden);
  const folded = new Set<DomElement>();
  for (const el of all) {
    // A collapse wrapper around the panel is what hides it (the panel is its one child).
    const wrapper = el.parentElement;
    if (isHidden(el)) folded.add(el);
    else if (wrapper && isHidden(wrapper) && wrapper.children.length === 1) folded.add(wrapper);
  }
  return folded;
}

/** How a page folds a panel away: the attribute, the accessibility flag, or an inline style. */
export const FOLDED_HIDING =
  "[hidden], [aria-hidden=true], [style*='display:none'], [style*='display: none']";

/** Opens a folded panel as its control would, so that Readability (which skips hidden nodes) reads it. */
export function unfold(el: DomElement): void {
  el.removeAttribute("hidden");
  el.removeAttribute("aria-hidden");
  const style = el.getAttribute("style");
  if (style) el.setAttribute("style", style.replace(/display\s*:\s*none\s*;?/gi, ""));
}
