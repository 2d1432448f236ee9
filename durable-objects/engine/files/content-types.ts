/** Content types of workspace files: guessed from the name, and whether a type reads as text. */

/** The type stored for bytes of unknown kind. */
export const OCTET_STREAM = "application/octet-stream";
/** How many leading bytes are sniffed to tell text from binary when the type does not say. */
export const SNIFF_BYTES = 8192;

const BY_EXTENSION: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/plain",
  json: "application/json",
  jsonl: "application/jsonl",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  zip: "application/zip",
  gz: "application/gzip",
  wasm: "application/wasm",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
  bin: OCTET_STREAM,
};

const TEXTUAL = /^(text\/|application\/(json|jsonl|xml|yaml|javascript|x-ndjson)\b|[^;]*\+(json|xml)\b)/i;

/** A content type for a file name, with a charset for text; `fallback` when the extension is unknown. */
export function typeForName(name: string, fallback = "text/plain"): string {
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  const type = BY_EXTENSION[ext] ?? fallback;
  return isTextType(type) && !type.includes("charset") ? `${type}; charset=utf-8` : type;
}

/** Whether a content type is text the model can read. */
export function isTextType(type: string): boolean {
  return TEXTUAL.test(type.trim());
}

/** Whether bytes look like UTF-8 text: they decode strictly and hold no NUL. */
export function looksLikeText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  try {
    // A multi-byte character cut at the sample's end is not a sign of binary.
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}
