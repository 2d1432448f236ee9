/**
 * DOCX → semantic HTML with mammoth (headings, lists, tables, links; extract/content.ts makes it
 * Markdown); title, author, date and language come from docProps/core.xml. Encrypted, legacy (.doc) and damaged files fail with a clear DocxError, and
 * what the conversion would inflate is bounded before it starts.
 */
import { CodedError } from "../errors";
import { readZipEntry, type ZipEntry, zipEntries } from "./zip-entries";

/** The media type of a Word document (web_fetch's content_type for one). */
export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/** At most this many bytes of XML parts (document, styles, numbering, notes) are inflated for one DOCX. */
export const MAX_DOCX_XML_BYTES = 32 * 1024 * 1024;

/** Why a DOCX gives no text. */
export type DocxErrorCode = "docx_encrypted" | "docx_invalid" | "docx_too_large";

/** A DOCX that cannot be read as text (the message says why, for the model). */
export class DocxError extends CodedError<DocxErrorCode> {}

/** A DOCX's body as HTML and what its core properties say. */
export interface DocxText {
  /** The body's HTML: h1-h6, p, ul/ol/li, table/tr/td, a, strong/em; no images. */
  html: string;
  title?: string;
  author?: string;
  /** The document's creation time, ISO 8601. */
  created?: string;
  language?: string;
}

const MAIN_PART = "word/document.xml";
/** The OLE compound-file signature: legacy .doc files, and Office files encrypted with a password. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Whether bytes are a DOCX: a complete ZIP archive holding word/document.xml. */
export function isDocxBytes(bytes: Uint8Array): boolean {
  return zipEntries(bytes)?.some((e) => e.name === MAIN_PART) ?? false;
}

const isOle = (bytes: Uint8Array) => OLE_MAGIC.every((b, i) => bytes[i] === b);

/** Whether an OLE file holds an encrypted OOXML package (its stream names are UTF-16LE). */
function isEncryptedPackage(bytes: Uint8Array): boolean {
  const name = new Uint8Array([..."EncryptedPackage"].flatMap((c) => [c.charCodeAt(0), 0]));
  outer: for (let i = 0; i + name.length <= bytes.length; i++) {
    for (let j = 0; j < name.length; j++) if (bytes[i + j] !== name[j]) continue outer;
    return true;
  }
  return false;
}

/** The entries of a DOCX, or a DocxError saying why the bytes are not a readable one. */
function docxEntries(bytes: Uint8Array): ZipEntry[] {
  if (isOle(bytes)) {
    if (isEncryptedPackage(bytes))
      throw new DocxError(
        "docx_encrypted",
        "The Word document is encrypted with a password, so its text cannot be read. Ask the user for an unprotected copy.",
      );
    throw new DocxError(
      "docx_invalid",
      "The file is a legacy Word 97-2003 (.doc) document, not a DOCX; only .docx files are read as text.",
    );
  }
  const entries = zipEntries(bytes);
  if (!entries)
    throw new DocxError(
      "docx_invalid",
      "The file is not a readable DOCX: it is not a complete ZIP archive (damaged or cut short).",
    );
  if (!entries.some((e) => e.name === MAIN_PART))
    throw new DocxError(
      "docx_invalid",
      `The file is not a readable DOCX: the ZIP archive has no ${MAIN_PART}.`,
    );
  const xml = entries.filter((e) => /\.(xml|rels)$/i.test(e.name)).reduce((n, e) => n + e.size, 0);
  if (xml > MAX_DOCX_XML_BYTES)
    throw new DocxError(
      "docx_too_large",
      `The Word document's XML inflates to more than ${MAX_DOCX_XML_BYTES / 1024 / 1024} MiB, the most that is converted to text.`,
    );
  return entries;
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === "#"
      ? String.fromCodePoint(Number(e[1] === "x" || e[1] === "X" ? `0${e.slice(1)}` : e.slice(1)))
      : (XML_ENTITIES[e] ?? m),
  );

/** One element's text from docProps/core.xml (any namespace prefix), trimmed; undefined when empty. */
function coreField(xml: string, name: string): string | undefined {
  const m = xml.match(new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>([^<]*)</(?:\\w+:)?${name}>`));
  const value = m ? decodeXml(m[1]).replace(/\s+/g, " ").trim() : "";
  return value || undefined;
}

/** Title, author, created and language from docProps/core.xml (nothing when it is absent or unreadable). */
async function coreProperties(bytes: Uint8Array, entries: ZipEntry[]): Promise<Omit<DocxText, "html">> {
  const entry = entries.find((e) => e.name === "docProps/core.xml");
  const raw = entry && entry.size < 1024 * 1024 ? await readZipEntry(bytes, entry) : null;
  if (!raw) return {};
  const xml = new TextDecoder().decode(raw);
  const created = coreField(xml, "created");
  const time = created ? Date.parse(created) : Number.NaN;
  return {
    title: coreField(xml, "title"),
    author: coreField(xml, "creator"),
    created: Number.isNaN(time) ? undefined : new Date(time).toISOString(),
    language: coreField(xml, "language"),
  };
}

/** Reads a DOCX as HTML; throws DocxError when the file is encrypted, legacy, damaged or too large. */
export async function readDocxText(bytes: Uint8Array): Promise<DocxText> {
  const entries = docxEntries(bytes);
  const mammoth = (await import("mammoth/mammoth.browser.js")).default;
  let html: string;
  try {
    const buffer = bytes.slice().buffer;
    // Images are not read at all: the Markdown leaves them out, so no bytes are decoded for them.
    const convertImage = mammoth.images.imgElement(async () => ({ src: "" }));
    html = (await mammoth.convertToHtml({ arrayBuffer: buffer }, { convertImage, externalFileAccess: false }))
      .value;
  } catch (err) {
    throw new DocxError("docx_invalid", `The file is not a readable DOCX: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return { html, ...(await coreProperties(bytes, entries)) };
}
