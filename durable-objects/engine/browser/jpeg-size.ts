/** Width and height of a JPEG from its start-of-frame marker, read from base64 without decoding it all. */

/** Base64 characters decoded first; the SOF marker sits after the quantisation tables, well inside. */
const PREFIX_CHARS = 4096;

/** The pixel size of a base64 JPEG, or 0×0 when it has no readable frame header. */
export function jpegSize(base64: string): { width: number; height: number } {
  for (let chars = PREFIX_CHARS; ; chars *= 4) {
    const part = base64.slice(0, chars - (chars % 4));
    const size = sofSize(decode(part));
    if (size || chars >= base64.length) return size ?? { width: 0, height: 0 };
  }
}

function decode(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Walks the marker segments up to the first SOFn (C0-CF except C4 DHT, C8 JPG, CC DAC). */
function sofSize(b: Uint8Array): { width: number; height: number } | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = (b[i + 2] << 8) | b[i + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
    }
    i += 2 + length;
  }
  return null;
}
