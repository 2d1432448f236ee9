/**
 * Blocks of HTML text (an element to its closing tag, a tag to its `>`) found as a global regex finds them, in
 * time linear in the text. A regex such as `<nav\b[^>]*>[\s\S]*?<\/nav\s*>` scans from each opener to the end
 * of the text when nothing closes it: a page of thousands of openers never closed cost time quadratic in its
 * size (20,000 `<!-- `: 0.5 s, JSON-LD openers: 9 s; tags with a `data-` attribute never closed by `>`: cubic,
 * 2,000 took 32 s), and pages are untrusted.
 */
export type Found = { at: number; end: number };
type Search = (pattern: RegExp, from: number) => Found | undefined;
/** Where the block an opener's match starts ends; -1 when none does (the scan goes on one character further). */
export type BlockEnd = (opener: RegExpExecArray, find: Search) => number;
type Block = Found & { m: RegExpExecArray };
type Replace = (block: string, m: RegExpExecArray) => string;

/**
 * Each block of `text`, left to right: it starts where the global pattern `opener` matches, and ends where
 * `blockEnd` says. Its searches remember each pattern's last answer: asked from further on, a match not yet
 * passed is still the first and no match stays none, so the text is read once per pattern (each pattern a
 * constant: a pattern made per call is never remembered).
 */
export function* blocksOf(text: string, opener: RegExp, blockEnd: BlockEnd): Generator<Block> {
  const last = new Map<RegExp, { from: number; found?: Found }>();
  const find: Search = (pattern, from) => {
    const known = last.get(pattern);
    if (known && known.from <= from && (known.found?.at ?? from) >= from) return known.found;
    pattern.lastIndex = from;
    const m = pattern.exec(text);
    last.set(pattern, { from, found: m ? { at: m.index, end: pattern.lastIndex } : undefined });
    return last.get(pattern)?.found;
  };
  opener.lastIndex = 0;
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const end = blockEnd(m, find);
    if (end >= 0) yield { at: m.index, end, m };
    opener.lastIndex = end >= 0 ? end : m.index + 1;
  }
}

/** `text` with each of its blocks (see blocksOf) replaced by what `replace` makes of it. */
export function replaceBlocks(text: string, opener: RegExp, end: BlockEnd, replace: Replace) {
  let out = "";
  let kept = 0;
  for (const block of blocksOf(text, opener, end)) {
    out += text.slice(kept, block.at) + replace(text.slice(block.at, block.end), block.m);
    kept = block.end;
  }
  return out + text.slice(kept);
}

const TAG_END = />/g;
const closers = new Map<string, RegExp>();

/**
 * The end of the element whose opener `m` matched `<name` (`<name\b[^>]*>[\s\S]*?<\/name\s*>`, any case): its tag
 * runs to the first `>` (and holds `inTag` there when given), the element to the first closing tag after it; a
 * bare tag (no `name`) ends at its `>`.
 */
export function elementEnd(m: RegExpExecArray, find: Search, name?: string, inTag?: RegExp): number {
  const from = m.index + m[0].length;
  const tag = find(TAG_END, from);
  if (!tag || (inTag && (find(inTag, from)?.at ?? tag.at) >= tag.at)) return -1;
  if (!name) return tag.end;
  const key = name.toLowerCase();
  if (!closers.has(key)) closers.set(key, new RegExp(`</${key}\\s*>`, "gi"));
  return find(closers.get(key)!, tag.end)?.end ?? -1;
}

/** An element block's inner markup: from its tag's `>` to its closing tag's `<` (the block's last). */
export const innerOf = (block: string) => block.slice(block.indexOf(">") + 1, block.lastIndexOf("<"));
