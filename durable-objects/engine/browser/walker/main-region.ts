/**
 * Finds a rendered page's main region, as a reader's eye does: the block richest in prose
 * (paragraph text that is not links) for the other text it holds, not counting prose inside page
 * chrome (navigation, sidebars, footers, dialogs, comments). A page with little prose (a search
 * form, a dashboard, an app) has no clear main region.
 */
import { ELEMENT_NODE, isReadable, TEXT_NODE, type WElement } from "./dom";

/** A text block counts as prose from this many characters of its own (non-link) text. */
export const MIN_BLOCK_PROSE = 60;
/** A block whose text is more than this share of links is a list of links, not prose. */
export const MAX_PROSE_LINK_SHARE = 0.4;
/** A page with less prose than this has no clear main region. */
export const MIN_PAGE_PROSE = 500;
/** What each character of text that is not prose costs a candidate region, against a character of prose. */
export const REGION_OTHER_COST = 0.25;
/** Chrome holding more than this share of the page's prose is read as content (a page that is all "sidebar"). */
const MAX_CHROME_SHARE = 0.5;
/** The region grows to take in the page's heading when that adds at most this share of its text. */
const HEADING_GROWTH = 0.3;

/** Tags that write their text inline, inside the block around them. */
const INLINE_TAGS = new Set(
  "A ABBR B BDI BDO CITE CODE DATA DFN EM FONT I KBD LABEL MARK Q S SAMP SMALL SPAN STRONG SUB SUP TIME U VAR WBR BR IMG".split(
    " ",
  ),
);
/** Landmarks of page chrome, by tag or role. */
const CHROME_TAGS = new Set(["NAV", "ASIDE", "FOOTER", "DIALOG"]);
const CHROME_ROLES = /^(navigation|complementary|contentinfo|dialog|alertdialog|banner|search)$/;
/** Class and id words of page chrome. */
export const CHROME_WORDS =
  /(^|[\s_-])(nav|navbar|navigation|menu|sidebar|footer|comments?|related|recommended|newsletter|subscribe|cookies?|consent|modal|popup|share|sharing|social|breadcrumbs?|promo|ad|ads|advert)($|[\s_-])/i;

/** What the measuring pass learns about a page. */
export interface PageMeasure {
  /** Visible text characters under each element. */
  text: Map<WElement, number>;
  /** Prose characters under each element (chrome excluded). */
  prose: Map<WElement, number>;
  /** Link text characters under each element. */
  links: Map<WElement, number>;
  /** Visible links (`a[href]`) under each element. */
  anchors: Map<WElement, number>;
}

interface Block {
  el: WElement;
  chars: number;
  link: number;
  /** Link characters of the blocks nested in this one. */
  nested: number;
}

/** Whether an element is page chrome by its tag, role or label. */
export function isChrome(el: WElement): boolean {
  if (CHROME_TAGS.has(el.tagName.toUpperCase())) return true;
  if (CHROME_ROLES.test(el.getAttribute("role") ?? "") || el.getAttribute("aria-modal") === "true")
    return true;
  return CHROME_WORDS.test(`${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`);
}

/** Measures visible text and prose under every element of `root`. */
export function measure(root: WElement): PageMeasure {
  const text = new Map<WElement, number>();
  const links = new Map<WElement, number>();
  const anchors = new Map<WElement, number>();
  const blocks: Block[] = [];
  const visit = (el: WElement, block: Block, inLink: boolean): number => {
    let total = 0;
    let linkCount = 0;
    const linkedBefore = block.link;
    const nestedBefore = block.nested;
    for (let i = 0; i < el.childNodes.length; i++) {
      const node = el.childNodes[i];
      if (node.nodeType === TEXT_NODE) {
        const n = (node.textContent ?? "").replace(/\s+/g, " ").trim().length;
        block.chars += n;
        if (inLink) block.link += n;
        total += n;
      } else if (node.nodeType === ELEMENT_NODE) {
        const child = node as WElement;
        if (!isReadable(child)) continue;
        const tag = child.tagName.toUpperCase();
        const link = inLink || tag === "A";
        if (INLINE_TAGS.has(tag)) total += visit(child, block, link);
        else {
          const own: Block = { el: child, chars: 0, link: 0, nested: 0 };
          total += visit(child, own, link);
          block.nested += own.link + own.nested;
          blocks.push(own);
        }
        linkCount += (anchors.get(child) ?? 0) + (tag === "A" && child.hasAttribute("href") ? 1 : 0);
      }
    }
    text.set(el, total);
    anchors.set(el, linkCount);
    links.set(el, block.link - linkedBefore + block.nested - nestedBefore);
    return total;
  };
  const top: Block = { el: root, chars: 0, link: 0, nested: 0 };
  visit(root, top, false);
  blocks.push(top);
  return { text, links, anchors, prose: proseOf(root, blocks) };
}

/** Adds each prose block's characters to it and its ancestors, unless it lies in chrome. */
function proseOf(root: WElement, blocks: Block[]): Map<WElement, number> {
  const proseBlocks = blocks.filter((b) => {
    const own = b.chars - b.link;
    return (
      own >= MIN_BLOCK_PROSE && b.link <= b.chars * MAX_PROSE_LINK_SHARE && !/^H[1-6]$/.test(b.el.tagName)
    );
  });
  const sum = (keep: (b: Block) => boolean) => {
    const out = new Map<WElement, number>();
    for (const b of proseBlocks) {
      if (!keep(b)) continue;
      for (let n: WElement | null = b.el; n; n = n === root ? null : n.parentElement)
        out.set(n, (out.get(n) ?? 0) + b.chars - b.link);
    }
    return out;
  };
  // Chrome is weighed by the prose it holds, chrome or not: a block labelled "content-with-sidebar"
  // or "article modal-enabled" that holds most of the page's prose is the content.
  const all = sum(() => true);
  const pageAll = all.get(root) ?? 0;
  const chrome = new Map<WElement, boolean>();
  const inChrome = (el: WElement): boolean => {
    for (let n: WElement | null = el; n && n !== root; n = n.parentElement) {
      let c = chrome.get(n);
      if (c === undefined) {
        c = isChrome(n) && (all.get(n) ?? 0) <= pageAll * MAX_CHROME_SHARE;
        chrome.set(n, c);
      }
      if (c) return true;
    }
    return false;
  };
  return sum((b) => !inChrome(b.el));
}

/**
 * The page's main region under `root`, or null when the page has no clear one: the block whose
 * prose, less REGION_OTHER_COST for each character of its other text (menus, captions, teasers'
 * links), is greatest; the innermost of equals.
 */
export function mainRegion(root: WElement, m: PageMeasure): WElement | null {
  if ((m.prose.get(root) ?? 0) < MIN_PAGE_PROSE) return null;
  let region = null as WElement | null;
  let best = Number.NEGATIVE_INFINITY;
  for (const [el, prose] of m.prose) {
    const score = prose - REGION_OTHER_COST * ((m.text.get(el) ?? 0) - prose);
    if (score > best || (score === best && region && region.contains(el))) {
      region = el;
      best = score;
    }
  }
  if (!region || region === root || best < MIN_PAGE_PROSE) return null;
  return withHeading(root, region, m);
}

/** Grows the region to take in the page's first visible <h1> when that adds little text. */
function withHeading(root: WElement, region: WElement, m: PageMeasure): WElement {
  const h1s = root.querySelectorAll("h1");
  let heading: WElement | null = null;
  for (let i = 0; i < h1s.length && !heading; i++) if (m.text.has(h1s[i])) heading = h1s[i];
  if (!heading || region.contains(heading)) return region;
  const base = m.text.get(region) ?? 0;
  for (let n = region.parentElement; n && n !== root; n = n.parentElement) {
    if ((m.text.get(n) ?? 0) > base * (1 + HEADING_GROWTH) + 200) return region;
    if (n.contains(heading)) return n;
  }
  return region;
}

/** Chrome inside the main region with little text of its own (share bars, related links, sign-up boxes). */
export const MAX_FOLDED_OWN_TEXT = 200;
/** A chrome block inside the region at least this share links is folded whatever its length. */
const FOLDED_LINK_SHARE = 0.5;

/** A block inside the region that is a list of links (teasers, "more stories") is at least this share links… */
const LINK_LIST_SHARE = 0.5;
/** … and holds at least this many links. */
const LINK_LIST_MIN_LINKS = 3;

/** The outermost blocks inside the region that are chrome or lists of links, left out of its text and listed in the outline. */
export function foldedParts(region: WElement, m: PageMeasure): WElement[] {
  const out: WElement[] = [];
  const regionProse = m.prose.get(region) ?? 0;
  const all = region.querySelectorAll("*");
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    const chars = m.text.get(el) ?? 0;
    if (!chars || out.at(-1)?.contains(el)) continue;
    const link = m.links.get(el) ?? 0;
    const folds = isChrome(el)
      ? link >= chars * FOLDED_LINK_SHARE || chars - link < MAX_FOLDED_OWN_TEXT
      : isLinkList(el, chars, link, m) || isTeaserList(el, m, regionProse);
    if (folds) out.push(el);
  }
  return out;
}

/** Whether a block is mostly links, several of them: a list of other pages, not part of the story. */
function isLinkList(el: WElement, chars: number, link: number, m: PageMeasure): boolean {
  if (link < chars * LINK_LIST_SHARE || INLINE_TAGS.has(el.tagName.toUpperCase())) return false;
  return (m.anchors.get(el) ?? 0) >= LINK_LIST_MIN_LINKS;
}

/** A list of teasers (other stories: a headline, a link, a line or two) has at least this many… */
const TEASER_MIN_ITEMS = 3;
/** … items with at most this much text that is not links… */
const TEASER_MAX_OWN_TEXT = 250;
/** … and holds at most this share of the region's prose. */
const TEASER_MAX_PROSE_SHARE = 0.3;

/** Whether a block is a list of teasers: most of its items a heading and a link with little else. */
function isTeaserList(el: WElement, m: PageMeasure, regionProse: number): boolean {
  if ((m.prose.get(el) ?? 0) > regionProse * TEASER_MAX_PROSE_SHARE) return false;
  let items = 0;
  let teasers = 0;
  for (let i = 0; i < el.children.length; i++) {
    const item = el.children[i];
    const chars = m.text.get(item) ?? 0;
    if (!chars) continue;
    items++;
    if (
      chars - (m.links.get(item) ?? 0) <= TEASER_MAX_OWN_TEXT &&
      item.querySelector("a[href]") &&
      item.querySelector("h2, h3, h4, h5, h6")
    )
      teasers++;
  }
  return teasers >= TEASER_MIN_ITEMS && teasers * 2 >= items;
}
