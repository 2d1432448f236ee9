/**
 * Blocks a page prints once per screen size in different markup: a site builder's breakpoint
 * variants that differ by a few words, a section shown on phones only beside its desktop layout.
 * A class names the screen size the copy is for (`hide-laptop`, `hidden-gt-md`, `ssr-variant`,
 * `md:hidden`); a reader sees one copy: the desktop's is kept when one copy names it (or the other
 * names phones), else the fuller one.
 * Exact twins under one parent go earlier (`twin-blocks.ts`); these are the copies that differ a
 * little or stand in different branches (one wrapped deeper than the other).
 */
import { solidLength, textWords } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A copy needs at least this many words (shorter texts repeat legitimately: labels, prices, buttons). */
export const MIN_COPY_WORDS = 8;
/** A copy of MIN_COPY_WORDS words has at least this many characters. */
const MIN_COPY_CHARS = MIN_COPY_WORDS * 3;
/** Share of the smaller copy's three-word runs the other copy must hold. */
export const TWIN_SHARE = 0.6;
/** Levels climbed from a marked copy to find its alternative (wrappers that hold only it). */
const MAX_CLIMB = 6;

/** Screen sizes a copy is for, as its classes name them: desktops, phones, or some (a site builder's variant). */
type Screens = "desktop" | "phone" | "some";

const HIDE = "(?:^|[-_])(?:hidden|hide)[-_](?:on[-_]|for[-_]|at[-_])?";
const SHOW = "(?:^|[-_])(?:visible|show|only)[-_](?:on[-_]|for[-_]|at[-_])?";
const SIZES = "sm|md|lg|xl|2xl";
const SHOWN = "block|flex|grid|inline|inline-block|inline-flex|table|contents";
/** A class token showing its element on desktops only (hidden on phones, shown from a width up). */
const DESKTOP_COPY = new RegExp(
  `${HIDE}(?:mobile|phone|xs|sm|small|lt[-_])|${SHOW}(?:desktop|laptop|lg|xl|large)|^(?:desktop|laptop)(?:[-_](?:only|view|version))?$|^(?:view|only)[-_]desktop$`,
);
/** A class token showing an element hidden by default from a width up (with `hidden` or `d-none`). */
const SHOWN_FROM = new RegExp(`^d-(?:${SIZES})-(?:${SHOWN})$|^(?:${SIZES}):(?:${SHOWN})$`);
/** A class token showing its element on phones only (hidden from a width up). */
const PHONE_COPY = new RegExp(
  `${HIDE}(?:desktop|laptop|lg|xl|xxl|large|gt[-_])|${SHOW}(?:mobile|phone|xs|small)|^(?:mobile|phone)(?:[-_](?:only|view|version))?$|^(?:view|only)[-_](?:mobile|phone)$|^d-(?:${SIZES})-none$|^(?:${SIZES}):hidden$`,
);
/** A class token of a block shown at some screen sizes only (a site builder's breakpoint variant). */
const SOME_COPY = new RegExp(`^ssr-variant$|${HIDE}(?:tablet|md)$`);

/** A class attribute that may name a screen size (the tokens are read only then). */
const MAY_NAME_SCREEN =
  /(?:hidden|hide|visible|show|only)[-_]|(?:^|\s)(?:ssr-variant|mobile|desktop|laptop|phone|d-none|d-(?:sm|md|lg|xl)-|(?:sm|md|lg|xl|2xl):(?:hidden|block|flex|grid|inline|table|contents))/i;

/** The screen sizes the element's classes show it at, or null when they name none. */
function screensOf(el: DomElement): Screens | null {
  const cls = el.getAttribute("class");
  if (!cls || !MAY_NAME_SCREEN.test(cls)) return null;
  let found: Screens | null = null;
  const tokens = cls.toLowerCase().split(/\s+/);
  for (const token of tokens) {
    if (DESKTOP_COPY.test(token)) return "desktop";
    if (SHOWN_FROM.test(token) && (tokens.includes("hidden") || tokens.includes("d-none"))) return "desktop";
    if (PHONE_COPY.test(token)) found = "phone";
    else if (!found && SOME_COPY.test(token)) found = "some";
  }
  return found;
}

/** A content's blocks whose classes name a screen size, with their measures (non-space characters). */
export interface ScreenCopies {
  sizes: Map<DomElement, number>;
  marked: DomElement[];
  /** Takes one element's measure (children before their parent, as `removeTwinBlocks` walks). */
  measured: (el: DomElement, chars: number) => void;
}

/** An empty set of marked blocks, to be filled by a walk of the content (`removeTwinBlocks`). */
export function screenCopies(): ScreenCopies {
  const sizes = new Map<DomElement, number>();
  const marked: DomElement[] = [];
  return {
    sizes,
    marked,
    measured: (el, chars) => {
      if (chars >= MIN_COPY_CHARS && screensOf(el)) {
        sizes.set(el, chars);
        marked.push(el);
      }
    },
  };
}

const wordsOf = (el: DomElement) => textWords(el.textContent ?? "");

/** The three-word runs of a text (hashed as strings). */
function runsOf(words: string[]): Set<string> {
  const runs = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) runs.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return runs;
}

/** Share of `small`'s runs that `big` holds. */
function sharedShare(small: Set<string>, big: Set<string>): number {
  let n = 0;
  for (const run of small) if (big.has(run)) n++;
  return small.size ? n / small.size : 0;
}

/**
 * Removes, for each block whose classes name a screen size, the lesser of it and a block beside it
 * (a sibling of it or of a wrapper holding only it) that repeats its text (TWIN_SHARE of its
 * three-word runs, either way). `copies` holds the marked blocks, found in the walk of
 * `removeTwinBlocks`. Cost: a class test of each block of 24+ characters in that walk; the text
 * and word runs only of a marked block and the blocks beside it.
 */
export function removeBreakpointTwins(root: DomElement, { sizes, marked }: ScreenCopies): void {
  if (!marked.length) return;
  // The blocks beside a marked one are measured when first compared (few pages mark any).
  const sizeOf = (el: DomElement) => {
    let n = sizes.get(el);
    if (n === undefined) {
      n = solidLength(el.textContent ?? "");
      sizes.set(el, n);
    }
    return n;
  };
  const gone = new Set<DomElement>();
  const isGone = (el: DomElement) => {
    for (let x: DomElement | null = el; x && x !== root; x = x.parentElement) if (gone.has(x)) return true;
    return false;
  };
  const drop = (el: DomElement) => {
    gone.add(el);
    el.remove();
  };
  for (const copy of marked) {
    const size = sizeOf(copy);
    if (isGone(copy)) continue;
    const mine = screensOf(copy);
    let runs: Set<string> | null = null;
    let x: DomElement = copy;
    for (let level = 0; level < MAX_CLIMB && x !== root; level++) {
      const parent = x.parentElement;
      if (!parent) break;
      // Blocks that name no screen and repeat the copy: one is its alternative, several are a
      // series (the items of a list, alike in wording).
      const unmarked: DomElement[] = [];
      let matched = false;
      for (let sib = parent.firstElementChild, next: DomElement | null; sib && !gone.has(copy); sib = next) {
        next = sib.nextElementSibling;
        if (sib === x) continue;
        const other = sizeOf(sib);
        if (other < size * 0.5 || other > size * 2) continue;
        // Alternatives are for other screens (a list's items, alike in markup, are not).
        const theirs = screensWithin(sib, sizeOf);
        if (theirs === mine && (mine !== "some" || screenClasses(sib) === screenClasses(copy))) continue;
        runs ??= runsOf(wordsOf(copy));
        if (runs.size < MIN_COPY_WORDS - 2) break;
        const sibRuns = runsOf(wordsOf(sib));
        const [small, big] = runs.size <= sibRuns.size ? [runs, sibRuns] : [sibRuns, runs];
        if (sharedShare(small, big) < TWIN_SHARE) continue;
        matched = true;
        if (theirs) drop(lesserCopy(copy, mine, size, sib, theirs, other));
        else unmarked.push(sib);
      }
      if (unmarked.length === 1 && !gone.has(copy))
        drop(lesserCopy(copy, mine, size, unmarked[0], null, sizeOf(unmarked[0])));
      if (matched) break;
      // Climb only through wrappers that hold little beside the copy.
      if (sizeOf(parent) > size * 1.5) break;
      x = parent;
    }
  }
}

/**
 * Of two copies, the one a desktop reader does not see: the other when one is for desktops, the
 * one for phones, else the shorter (of two alike, the later).
 */
function lesserCopy(
  copy: DomElement,
  mine: Screens | null,
  size: number,
  sib: DomElement,
  theirs: Screens | null,
  other: number,
): DomElement {
  if (mine !== theirs) {
    if (mine === "desktop") return sib;
    if (theirs === "desktop") return copy;
    if (mine === "phone") return copy;
    if (theirs === "phone") return sib;
  }
  return size < other || (size === other && !isBefore(copy, sib)) ? copy : sib;
}

/** The element's class, as the variants of one block tell apart. */
const screenClasses = (el: DomElement) => el.getAttribute("class") ?? "";

/** The screens named by the element or the wrappers inside it that hold nearly all its text. */
function screensWithin(el: DomElement, sizeOf: (el: DomElement) => number): Screens | null {
  const size = sizeOf(el);
  for (let y: DomElement | null = el; y; ) {
    const screens = screensOf(y);
    if (screens) return screens;
    let biggest: DomElement | null = null;
    for (let c: DomElement | null = y.firstElementChild; c; c = c.nextElementSibling)
      if (!biggest || sizeOf(c) > sizeOf(biggest)) biggest = c;
    y = biggest && sizeOf(biggest) >= size * 0.9 ? biggest : null;
  }
  return null;
}

/** Whether `a` comes before `b` (a sibling of one of its ancestors or of itself). */
function isBefore(a: DomElement, b: DomElement): boolean {
  for (let x: DomElement | null = a; x; x = x.parentElement)
    if (x.parentElement === b.parentElement) {
      for (let s = x.nextElementSibling; s; s = s.nextElementSibling) if (s === b) return true;
      return false;
    }
  return false;
}
