/**
 * Pages built of sections: a service or landing page made with a page builder is a run of like
 * sibling blocks (same tag and class shape), each opened by its own heading (hero, features,
 * process, FAQ). Many such pages call themselves articles (`og:type=article`), and Readability
 * then takes one or two of the blocks; the content is the whole run.
 */
import { HEADING_TAG, mostCommon, shapeOf, someAncestor } from "./dom-shape";
import { linkTextLength, textLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";
import { type BodyWalk, elementsOf, SECTION_HEADINGS } from "./page-walk";
import { type Region, removeChrome } from "./region";

/** A run has at least this many like sections, each holding a heading. */
export const MIN_SECTIONS = 5;
/** The like sections are at least this share of the container's children that hold a heading. */
export const SECTION_SHAPE_SHARE = 0.6;
/** At most this share of the sections may open with a linked heading (more, they are cards). */
export const MAX_LINKED_HEADINGS = 0.3;
/** Sections average at least this many characters (a menu's columns or a card strip hold a few words). */
export const MIN_MEAN_SECTION_CHARS = 150;
/** A run whose text is more than this share links is a menu or a card list, not sections of prose. */
export const MAX_RUN_LINK_SHARE = 0.4;
/** The run replaces Readability's article when it holds at least this many times its text. */
export const RUN_OVER_ARTICLE = 1.4;
/** Characters of the article's longest paragraph looked up in the run's text (it must be one of the sections). */
const PROBE_CHARS = 60;

/** A run of sections: their container, the sections' text length and how many there are. */
export interface SectionRun {
  node: DomElement;
  chars: number;
  sections: number;
}

/** Whether the block's first heading is a link (a card's title) or sits in one. */
function linkedHeading(block: DomElement): boolean {
  const h = block.querySelector("h2, h3");
  if (!h || h.querySelector("a")) return h !== null;
  return someAncestor(h.parentElement, block, (n) => n.tagName === "A");
}

/** The children of each element that hold a heading (a heading itself is not a section), found from the headings up. */
function headedChildren(root: DomElement, walk?: BodyWalk): Map<DomElement, Set<DomElement>> {
  const byParent = new Map<DomElement, Set<DomElement>>();
  for (const h of elementsOf(root, SECTION_HEADINGS, walk)) {
    for (let c: DomElement = h, p = h.parentElement; p; c = p, p = p.parentElement) {
      if (!HEADING_TAG.test(c.tagName)) {
        const set = byParent.get(p);
        if (set?.has(c)) break; // This branch of ancestors was already recorded by an earlier heading.
        byParent.set(p, (set ?? new Set()).add(c));
      }
      if (p === root) break;
    }
  }
  return byParent;
}

/** The sections of one container when enough of its headed children share one shape, or null. */
function runOf(parent: DomElement, headed: Set<DomElement>): SectionRun | null {
  const [shape, count] = mostCommon(Array.from(headed, shapeOf));
  if (count < MIN_SECTIONS || count < headed.size * SECTION_SHAPE_SHARE) return null;
  const sections = [...headed].filter((c) => shapeOf(c) === shape);
  // Sections open with a heading of their own; cards (a listing, "read next") with a linked title.
  if (sections.filter(linkedHeading).length > count * MAX_LINKED_HEADINGS) return null;
  // The sections' own text is what is weighed: a container's other children may be anything.
  const chars = sections.reduce((n, c) => n + textLength(c), 0);
  const links = sections.reduce((n, c) => n + linkTextLength(c), 0);
  if (chars < count * MIN_MEAN_SECTION_CHARS || links > chars * MAX_RUN_LINK_SHARE) return null;
  return { node: parent, chars, sections: count };
}

/** The run of like headed sections under root holding the most text, or null when the page has none; `walk` as for `elementsOf`. */
export function sectionRun(root: DomElement, walk?: BodyWalk): SectionRun | null {
  let best: SectionRun | null = null;
  for (const [parent, headed] of headedChildren(root, walk)) {
    if (headed.size < MIN_SECTIONS) continue;
    const run = runOf(parent, headed);
    if (run && (!best || run.chars > best.chars)) best = run;
  }
  return best;
}

/** The opening of the article's longest paragraph or list item, taken before cleanup edits it ("" when it has none). */
export function articleProbe(article: DomElement): string {
  const texts = [...article.querySelectorAll("p, li")].map(textOf);
  return texts.reduce((probe, text) => (text.length > probe.length ? text : probe), "").slice(0, PROBE_CHARS);
}

/**
 * Whether the run should replace Readability's article: its sections hold several times the
 * article's text, and the article's longest paragraph is in the container's text (taken before
 * Readability read the page), so Readability took some of the sections, not an article beside them.
 */
export function runOverArticle(run: SectionRun, runText: string, probe: string, articleChars: number) {
  return probe !== "" && run.chars >= articleChars * RUN_OVER_ARTICLE && runText.includes(probe);
}

/**
 * The run's container as the region, found again on a fresh parse of the page cleaned as the
 * first was (Readability took the first apart), stripped of its chrome; null when it holds less
 * than RUN_OVER_ARTICLE times the article's text once stripped.
 */
export function sectionsRegion(body: DomElement, articleChars: number, walk?: BodyWalk): Region | null {
  const run = sectionRun(body, walk);
  if (!run) return null;
  removeChrome(run.node);
  const chars = textLength(run.node);
  return chars >= articleChars * RUN_OVER_ARTICLE ? { node: run.node, chars } : null;
}
