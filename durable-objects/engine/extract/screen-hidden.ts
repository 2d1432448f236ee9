/**
 * Blocks a page builder hides at every screen width: a section marked hidden on desktops and on
 * phones alike (`elementor-hidden-desktop elementor-hidden-tablet elementor-hidden-mobile`,
 * Bootstrap 3's `hidden-lg ... hidden-xs`) is a draft or a switched-off block that no reader
 * sees. It goes before anything reads the page. One width alone says nothing: a block hidden on
 * phones is the desktop's copy, and the phone's copy is often the only one the page has.
 */
import type { DomDocument } from "./dom-types";
import { markupMay } from "./markup-hints";

/** A class token hiding its element at desktop widths. */
const HIDDEN_ON_DESKTOP = /(?:^|[-_])hidden[-_](?:desktop|lg)$/;
/** A class token hiding its element at phone widths. */
const HIDDEN_ON_PHONE = /(?:^|[-_])hidden[-_](?:mobile|phone|xs)$/;
/** The markup may hold a desktop-hidden class (the query runs only then; class names are lower case: a case-sensitive scan is cheaper). */
const MAY_HIDE_ON_DESKTOP = /hidden[-_](?:desktop|lg)\b/;

/**
 * Removes the elements whose classes hide them on desktops and on phones. Cost: a scan of the
 * page's text for the desktop word (cached), and one `[class*=hidden]` query only when it is there.
 */
export function removeHiddenEverywhere(doc: DomDocument): void {
  if (!doc.body || !markupMay(doc, MAY_HIDE_ON_DESKTOP)) return;
  for (const el of [...doc.body.querySelectorAll("[class*='hidden']")]) {
    const tokens = (el.getAttribute("class") ?? "").split(/\s+/);
    if (tokens.some((t) => HIDDEN_ON_DESKTOP.test(t)) && tokens.some((t) => HIDDEN_ON_PHONE.test(t)))
      el.remove();
  }
}
