/**
 * Reads a ZIP archive's central directory (names, sizes, where each entry starts) and inflates a
 * single entry with the runtime's DecompressionStream: enough to tell a DOCX from other ZIPs, to
 * bound what converting it would expand to, and to read its small metadata parts.
 */

/** One file of a ZIP archive, as its central directory lists it. */
export interface ZipEntry {
  name: string;
  /** Size once inflated; Infinity for ZIP64 entries (sizes this reader does not decode). */
  size: number;
  compressedSize: number;
  method: number;
  headerOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/** The entries of a ZIP archive, or null when the bytes are no (complete) ZIP archive. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22 || view.getUint32(0, true) !== LOCAL) return null;
  // The end record is the last 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  const names = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) return null;
    const nameLength = view.getUint16(at + 28, true);
    const size = view.getUint32(at + 24, true);
    const compressedSize = view.getUint32(at + 20, true);
    entries.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      size: size === ZIP64_MARK ? Number.POSITIVE_INFINITY : size,
      compressedSize,
      method: view.getUint16(at + 10, true),
      headerOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The inflated bytes of one entry (stored or deflated), or null when it cannot be read. */
export async function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Promise<Uint8Array | null> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method !== 8) return null;
  try {
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return null;
  }
}
