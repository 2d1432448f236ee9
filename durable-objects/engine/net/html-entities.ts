/** HTML character references in text that arrived still escaped (a search snippet, a JSON-LD string a CMS escaped). */

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The character a numeric reference names, or null when it names none (beyond U+10FFFF). */
function codePoint(n: number): string | null {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : null;
}

/**
 * Decodes `&amp;`-style named references (the common ones), `&#39;` and `&#x27;`; a reference
 * it does not know, or a number naming no character, stays as it is.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, code: string) => {
    if (code[0] !== "#") return NAMED[code.toLowerCase()] ?? all;
    const hex = code[1] === "x" || code[1] === "X";
    return codePoint(hex ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1))) ?? all;
  });
}
