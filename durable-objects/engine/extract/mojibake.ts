/**
 * Text encoded as UTF-8 twice: a CMS that read UTF-8 bytes as Latin-1 or Windows-1252 and stored
 * the result prints "doesnât" (bytes C3 A2 C2 80 C2 99) for "doesn’t" and "Â " for a no-break
 * space. The page's charset is right, the text inside it is not. Each run of characters whose
 * single-byte values form a valid multi-byte UTF-8 sequence is decoded back, as ftfy does, but only
 * when the page's text holds several such runs: one "Ã©" alone may be meant. The
 * title and metadata, too short to tell, follow the page's content.
 */

import type { PageMetadata } from "./metadata";

/** Windows-1252's characters for the bytes 0x80–0x9F (Latin-1 keeps them as C1 controls). */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

const BYTE_OF = new Map<string, number>();
for (let b = 0x80; b <= 0xff; b++) BYTE_OF.set(String.fromCharCode(b), b);
for (let i = 0; i < CP1252_HIGH.length; i++) BYTE_OF.set(CP1252_HIGH[i], 0x80 + i);

/** A continuation byte (0x80–0xBF) as Latin-1 or Windows-1252 shows it. */
const CONT = `[\\u0080-\\u00bf${CP1252_HIGH.replace(/[\u0080-\u009f]/g, "")}]`;
/** A lead byte and as many continuation bytes as it announces. */
const SEQUENCE = new RegExp(
  `[\\u00c2-\\u00df]${CONT}|[\\u00e0-\\u00ef]${CONT}{2}|[\\u00f0-\\u00f4]${CONT}{3}`,
  "g",
);
/** Runs to find before the text is taken as encoded twice. */
const MIN_RUNS = 2;

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function decodeRun(run: string): string | null {
  const bytes = new Uint8Array(run.length);
  for (let i = 0; i < run.length; i++) {
    const byte = BYTE_OF.get(run[i]);
    if (byte === undefined) return null;
    bytes[i] = byte;
  }
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** Whether the text holds several runs that decode: it was encoded twice, not written so. */
export function isEncodedTwice(text: string): boolean {
  const runs = text.match(SEQUENCE);
  if (!runs || runs.length < MIN_RUNS) return false;
  let decodable = 0;
  for (const run of runs) if (decodeRun(run) !== null && ++decodable >= MIN_RUNS) return true;
  return false;
}

/** The text with every run of doubly encoded UTF-8 decoded back (runs that do not decode stay). */
export function repairMojibake(text: string): string {
  return text.replace(SEQUENCE, (run) => decodeRun(run) ?? run);
}

/** The page's stated title, author and site name repaired the same way. */
export function repairedMetadata(metadata: PageMetadata): PageMetadata {
  for (const key of ["title", "author", "site_name"] as const) {
    const value = metadata[key];
    if (value) metadata[key] = repairMojibake(value);
  }
  return metadata;
}
