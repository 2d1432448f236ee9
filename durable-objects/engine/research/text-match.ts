/**
 * Matching quotations against pages read, without keeping the pages: a page is stored as the
 * ordered hashes of its six-word windows ("shingles"), and a quotation of six words or more is
 * found when its own shingles appear there one after another. Words are letters and digits
 * after Unicode normalisation and lower-casing, so case, whitespace, punctuation, Markdown and
 * the kind of quotation marks never decide a match.
 */

/** Words per shingle; a quotation needs at least this many words to be checked. */
export const SHINGLE_WORDS = 6;
/** Words of one read that are kept (about 80 KB of hashes); a longer read is cut and says so. */
export const MAX_READ_WORDS = 20_000;

/** The words a text is matched by. */
export function matchWords(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** 32-bit FNV-1a of a string. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The ordered shingle hashes of a word list (empty with fewer than SHINGLE_WORDS words). */
export function shingles(words: string[]): Uint32Array {
  const n = Math.max(0, words.length - SHINGLE_WORDS + 1);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = fnv1a(words.slice(i, i + SHINGLE_WORDS).join(" "));
  return out;
}

/** A page's text as stored: its shingles (of at most MAX_READ_WORDS words) and whether it was cut. */
export function pageShingles(text: string): { hashes: Uint32Array; words: number; cut: boolean } {
  const words = matchWords(text);
  const kept = words.length > MAX_READ_WORDS ? words.slice(0, MAX_READ_WORDS) : words;
  return { hashes: shingles(kept), words: kept.length, cut: kept.length < words.length };
}

/** Whether a quotation (as shingles) occurs in a page (as shingles), window after window. */
export function containsShingles(page: Uint32Array, quote: Uint32Array): boolean {
  if (quote.length === 0 || quote.length > page.length) return false;
  outer: for (let i = 0; i + quote.length <= page.length; i++) {
    if (page[i] !== quote[0]) continue;
    for (let k = 1; k < quote.length; k++) if (page[i + k] !== quote[k]) continue outer;
    return true;
  }
  return false;
}

/** Whether a text counts as a quotation: six words or more. */
export function isQuotation(text: string): boolean {
  return matchWords(text).length >= SHINGLE_WORDS;
}
