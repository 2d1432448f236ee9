/**
 * An element's text and the lengths of its descendants' texts from one walk. Readability measures a block by
 * reading `textContent` again for every question it asks of it (its text, its lists' text, each link's text,
 * each heading's text...), and on linkedom each read walks the whole subtree: one walk that measures the
 * block's text and its descendants' as it reads the text nodes answers all of them. The lengths are
 * Readability's (`_getInnerText(el).length`: trimmed, runs of whitespace folded to one space).
 */
import { CDATA_NODE, ELEMENT_NODE, isSpace, shortText, TEXT_NODE } from "./dom-text";
import type { DomElement, DomNode } from "./dom-types";

/**
 * Says which descendants to measure: a non-zero mark (the caller's bit set) measures the element's text.
 * `inTemplate` tells whether a `<template>` above it (below the root) holds it: a selector query skips what a
 * template holds, `textContent` and `getElementsByTagName` do not.
 */
export type MarkElement = (el: DomElement, inTemplate: boolean) => number;

/** What one walk of an element measures. */
export interface MeasuredSubtree {
  /** Readability's length of the root's text (index 0) and of each measured element's (index i + 1). */
  lengths: number[];
  /** How many measured elements each one holds (same indices): they follow it in `elements`. */
  inside: number[];
  /** The measured elements and their marks, in document order; the root is not among them. */
  elements: DomElement[];
  marks: number[];
  /** Commas in the root's text, counted up to MAX_COUNTED_COMMAS in each text node. */
  commas: number;
}

const COMMA = 44;
/** Commas are counted per text node up to this many (Readability only asks whether a block has fewer than 10). */
export const MAX_COUNTED_COMMAS = 15;

/** Where a text node's measures are kept, with the text they were taken of (a changed text is measured again). */
const MEASURES = Symbol("textMeasures");
const MEASURED_TEXT = Symbol("measuredText");
type MeasuredNode = DomNode & { [MEASURES]?: number; [MEASURED_TEXT]?: string };

/** Bits of a text node's packed measures, below its folded length. */
const STARTS_WITH_SPACE = 1;
const ENDS_WITH_SPACE = 2;
const COMMAS_SHIFT = 2;
const LENGTH_SHIFT = 16;

/**
 * A text node's own measures, packed in one number: its folded length (trimmed, runs of spaces as
 * one), whether it starts or ends with whitespace, and its commas (up to MAX_COUNTED_COMMAS).
 * Kept on the node: Readability measures the same text once for each block around it.
 */
function textMeasures(node: MeasuredNode, data: string): number {
  const kept = node[MEASURES];
  if (kept !== undefined && node[MEASURED_TEXT] === data) return kept;
  let solid = 0;
  let gaps = 0;
  let commas = 0;
  let afterSpace = false;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 160 && isSpace(c)) {
      afterSpace = true;
      continue;
    }
    if (afterSpace && solid > 0) gaps++;
    solid++;
    if (c === COMMA) commas++;
    afterSpace = false;
  }
  const edges =
    (data.length && isSpace(data.charCodeAt(0)) ? STARTS_WITH_SPACE : 0) |
    (data.length && isSpace(data.charCodeAt(data.length - 1)) ? ENDS_WITH_SPACE : 0);
  const measures =
    (solid + gaps) * 2 ** LENGTH_SHIFT + (Math.min(commas, MAX_COUNTED_COMMAS) << COMMAS_SHIFT) + edges;
  node[MEASURES] = measures;
  node[MEASURED_TEXT] = data;
  return measures;
}

/**
 * The running measures of one walk: lengths are differences of a running folded length, less the
 * space before an element's first word (which its trimmed text leaves out).
 */
class RunningMeasures {
  readonly lengths = [0];
  readonly inside = [0];
  readonly elements: DomElement[] = [];
  readonly marks: number[] = [];
  commas = 0;
  // The running length at each measured element's start, and whether a space was counted before
  // its first word (set when the first word after the start is read).
  private readonly lengthAt = [0];
  private readonly leadingGap = [0];
  private readonly waiting = [0];
  private length = 0;
  private solid = false;
  private afterSpace = false;

  /** Starts measuring an element the caller's mark picked; returns its range index. */
  start(el: DomElement, mark: number): number {
    const range = this.lengths.length;
    this.lengths.push(0);
    this.inside.push(0);
    this.elements.push(el);
    this.marks.push(mark);
    this.lengthAt.push(this.length);
    this.leadingGap.push(0);
    this.waiting.push(range);
    return range;
  }

  /** Adds a text node's folded text (and its commas) to the running length. */
  text(node: DomNode): void {
    const data = node.textContent ?? "";
    const measures = textMeasures(node, data);
    const folded = Math.floor(measures / 2 ** LENGTH_SHIFT);
    this.commas += (measures >> COMMAS_SHIFT) & 15;
    if (folded > 0) {
      const gap = this.solid && (this.afterSpace || (measures & STARTS_WITH_SPACE) !== 0);
      if (gap) this.length++;
      this.length += folded;
      for (const r of this.waiting) this.leadingGap[r] = gap ? 1 : 0;
      this.waiting.length = 0;
      this.solid = true;
      this.afterSpace = (measures & ENDS_WITH_SPACE) !== 0;
    } else if (data.length) this.afterSpace = true;
  }

  /** Ends the element measured at `range` (its subtree is walked). */
  end(range: number): void {
    const { length, lengthAt } = this;
    this.lengths[range] = length === lengthAt[range] ? 0 : length - lengthAt[range] - this.leadingGap[range];
    this.inside[range] = this.elements.length - range;
  }

  result(): MeasuredSubtree {
    this.lengths[0] = this.length;
    this.inside[0] = this.elements.length;
    return this;
  }
}

/**
 * Walks root's subtree once (sibling links; the text nodes `textContent` reads) and measures the
 * text of root and of the elements `mark` picks as Readability does: trimmed, each run of
 * whitespace folded to one character.
 */
export function measureSubtree(root: DomElement, mark: MarkElement): MeasuredSubtree {
  const measures = new RunningMeasures();
  // The range index of each open element (-1 when not measured).
  const open: number[] = [];
  let templates = 0;
  let node: DomNode | null = root.firstChild;
  while (node) {
    const type = node.nodeType;
    if (type === ELEMENT_NODE) {
      const el = node as DomElement;
      const m = mark(el, templates > 0);
      const range = m !== 0 ? measures.start(el, m) : -1;
      const first = el.firstChild;
      if (first) {
        open.push(range);
        if (el.localName === "template") templates++;
        node = first;
        continue;
      }
    } else if (type === TEXT_NODE || type === CDATA_NODE) measures.text(node);
    // The next node: a sibling, else the sibling of the nearest open ancestor that has one.
    let next: DomNode | null = node.nextSibling;
    while (!next) {
      const up: DomNode | null = node.parentNode;
      if (!up || up === root) break;
      const range = open.pop() ?? -1;
      if (range >= 0) measures.end(range);
      if ((up as DomElement).localName === "template") templates--;
      node = up;
      next = node.nextSibling;
    }
    node = next;
  }
  return measures.result();
}

/** Whether the element's text holds anything but whitespace (`textContent.trim() !== ""`), read up to its first such character. */
export const hasSolidText = (root: DomElement) => shortText(root, 0) === null;
