/**
 * The title and lead of a document printed in a block beside its body (`main > div.intro-header
 * (h1, lead paragraphs) + div.body`). Readability takes the body, the larger block, and leaves the
 * lead, a sibling scoring below its threshold: the lead is the document's opening and goes before
 * the body.
 */
import { foldText } from "./dom-text";
import type { DomElement } from "./dom-types";
import { holdsHeaderProse } from "./readability-weights";

/** The start of a paragraph looked up in the body, and the least that is looked up (shorter lines repeat by chance). */
const PROBE_CHARS = 80;
const MIN_PROBE_CHARS = 40;

/**
 * The block beside Readability's top candidate (a child of `parent`, its parent still in the page)
 * that holds the page's `<h1>` (or held it: a header block Readability kept, `keptHeaders`, whose
 * `<h1>` it then dropped as the title) and paragraphs of prose (MIN_HEADER_PROSE), its `<h1>` taken out
 * (the title is read apart); null when there is none or when one of its paragraphs is in `article`
 * already (a copy). Cost: a scan of parent's children with one `h1` query each, a paragraph walk on
 * the one holding it, and one read of the article's text.
 */
export function leadBeside(
  parent: DomElement,
  article: DomElement,
  keptHeaders: Set<DomElement>,
): DomElement | null {
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
    if (!keptHeaders.has(c) && !c.querySelector("h1")) continue;
    if (!holdsHeaderProse(c)) continue;
    // A header printing again what the body holds (one copy per layout) leads nothing.
    const held = foldText(article.textContent ?? "");
    for (const p of c.querySelectorAll("p")) {
      const line = foldText(p.textContent ?? "").slice(0, PROBE_CHARS);
      if (line.length >= MIN_PROBE_CHARS && held.includes(line)) return null;
    }
    c.querySelector("h1")?.remove();
    return c;
  }
  return null;
}
