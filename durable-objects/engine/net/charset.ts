/** Finds a response's real character encoding (header, BOM, meta tag) and decodes its bytes. */

/** How many leading bytes are searched for a `<meta charset>` declaration. */
export const META_SNIFF_BYTES = 4096;

const LABEL_ALIASES: Record<string, string> = {
  "iso-8859-1": "windows-1252",
  latin1: "windows-1252",
  "us-ascii": "windows-1252",
  ascii: "windows-1252",
  gb2312: "gbk",
  "x-gbk": "gbk",
  sjis: "shift_jis",
  "x-sjis": "shift_jis",
  ms932: "shift_jis",
  "windows-31j": "shift_jis",
  "ks_c_5601-1987": "euc-kr",
  cp949: "euc-kr",
  utf8: "utf-8",
};

/** A WHATWG encoding label TextDecoder accepts, or null when unknown. */
export function normalizeCharset(label: string | null | undefined): string | null {
  if (!label) return null;
  const clean = label
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase();
  if (!clean) return null;
  const name = LABEL_ALIASES[clean] ?? clean;
  try {
    return new TextDecoder(name).encoding;
  } catch {
    return null;
  }
}

/** The charset parameter of a Content-Type header. */
export function charsetFromContentType(contentType: string | null): string | null {
  const m = contentType?.match(/charset\s*=\s*["']?([^;"'\s]+)/i);
  return normalizeCharset(m?.[1]);
}

function bomCharset(bytes: Uint8Array): { charset: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: "utf-8", length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: "utf-16be", length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: "utf-16le", length: 2 };
  return null;
}

/** The charset a `<meta charset>` or `<meta http-equiv=content-type>` declares in the page's head. */
export function charsetFromMeta(bytes: Uint8Array): string | null {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, META_SNIFF_BYTES));
  const direct = head.match(/<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i);
  if (direct) return normalizeCharset(direct[1]);
  const xml = head.match(/^<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_:.+-]+)/i);
  return normalizeCharset(xml?.[1]);
}

/** Decodes a body: BOM first, then the header, then the meta tag (HTML only), else UTF-8 or Windows-1252. */
export function decodeBody(bytes: Uint8Array, contentType: string | null, isHtml: boolean): string {
  const bom = bomCharset(bytes);
  if (bom) return new TextDecoder(bom.charset).decode(bytes.subarray(bom.length));
  const declared = charsetFromContentType(contentType) ?? (isHtml ? charsetFromMeta(bytes) : null);
  if (declared) return new TextDecoder(declared).decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
