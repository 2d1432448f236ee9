/**
 * Reads a window of lines out of a text stream without holding the whole file: only the lines
 * asked for are kept, the rest are counted.
 */

/** At most this many characters of a window are kept, whatever the line count (bounds memory). */
export const MAX_WINDOW_CHARS = 8 * 1024 * 1024;

/** Lines `offset` (1-based) to `offset + limit - 1` of a text, and how many lines it has. */
export interface TextWindow {
  text: string;
  /** Lines returned. */
  lines: number;
  totalLines: number;
  /** The window hit {@link MAX_WINDOW_CHARS} and was cut. */
  cut: boolean;
}

/** Reads lines [offset, offset + limit) of a UTF-8 stream. */
export async function readTextWindow(
  body: ReadableStream<Uint8Array>,
  offset: number,
  limit: number,
): Promise<TextWindow> {
  const last = offset + limit - 1;
  const kept: string[] = [];
  let keptChars = 0;
  let current = "";
  let line = 1; // the line being read
  let lineHasChars = false;
  let cut = false;
  const keep = (piece: string) => {
    if (line < offset || line > last || cut) return;
    if (keptChars + piece.length > MAX_WINDOW_CHARS) {
      current += piece.slice(0, Math.max(0, MAX_WINDOW_CHARS - keptChars));
      keptChars = MAX_WINDOW_CHARS;
      cut = true;
      return;
    }
    current += piece;
    keptChars += piece.length;
  };
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    let start = 0;
    for (let nl = value.indexOf("\n"); nl >= 0; nl = value.indexOf("\n", start)) {
      keep(value.slice(start, nl));
      if (line >= offset && line <= last) kept.push(current);
      current = "";
      line++;
      lineHasChars = false;
      start = nl + 1;
    }
    if (start < value.length) {
      keep(value.slice(start));
      lineHasChars = true;
    }
  }
  if (lineHasChars && line >= offset && line <= last) kept.push(current);
  const totalLines = lineHasChars ? line : line - 1;
  return { text: kept.join("\n"), lines: kept.length, totalLines, cut };
}
