/** Turns a downloaded body into what web_fetch returns: Markdown, pretty JSON, text, PDF or DOCX text, or a note on binaries. */

import { DOCX_TYPE, isDocxBytes, readDocxText } from "../docx/docx-text";
import { decodeBody } from "../net/charset";
import { isPdfBytes, PDF_TYPE, readPdfText } from "../pdf/pdf-text";
import { extractMainContent, htmlToMarkdown, type PageMetadata } from "../../extractor";

/** How a body is handled. */
export type BodyKind = "html" | "json" | "text" | "pdf" | "docx" | "binary";

/** A rendered body and the metadata the document states. */
export interface Rendered {
  text: string;
  metadata: PageMetadata;
  /** Part of the document was left out (a PDF's pages past the page cap, an HTML page's markup past the extractor's). */
  truncated?: boolean;
}

const TEXT_TYPES =
  /^(text\/|application\/(xml|javascript|ecmascript|x-sh|x-yaml|yaml|toml|sql|graphql|x-www-form-urlencoded|rss\+xml|atom\+xml))|\+xml$/;

/** The bare media type of a Content-Type header (`text/html`), or null. */
export function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type || null;
}

/** How a media type is handled (unknown types are sniffed from the bytes later). */
export function kindOf(type: string | null): BodyKind | null {
  if (!type) return null;
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === PDF_TYPE || type === "application/x-pdf") return "pdf";
  if (type === DOCX_TYPE) return "docx";
  if (type === "application/json" || type.endsWith("+json") || type === "text/json") return "json";
  if (TEXT_TYPES.test(type)) return "text";
  if (type === "application/octet-stream" || type === "binary/octet-stream") return null;
  return "binary";
}

/** Guesses the kind of a body sent without a (useful) Content-Type. */
export function sniffKind(bytes: Uint8Array): BodyKind {
  if (isPdfBytes(bytes)) return "pdf";
  if (isDocxBytes(bytes)) return "docx";
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  if (head.startsWith("pk\u0003\u0004") || bytes.subarray(0, 512).includes(0)) return "binary";
  if (
    head.startsWith("<!doctype html") ||
    head.startsWith("<html") ||
    /<(head|body|title|p|div)[\s>]/.test(head)
  )
    return "html";
  if (head.startsWith("{") || head.startsWith("[")) return "json";
  return "text";
}

/** A human size: 512 B, 12.3 KB, 4.5 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The note returned instead of a binary body. */
export function binaryNote(type: string | null, size: number): string {
  const what = type ?? "unknown binary data";
  return `[${what} content, ${formatSize(size)}: not shown. web_fetch returns HTML pages (as Markdown), PDFs, Word (DOCX) documents, JSON and plain text as text; this is a binary file (e.g. an image or an archive).]`;
}

/**
 * What web_fetch says of an HTML page whose markup shows no main content: it is drawn by script (or
 * held behind a check), so a browser tab reads it; the page's own description is quoted as such,
 * never passed off as its content.
 */
export function noContentNote(description: string): string {
  const note =
    "(The page's HTML shows no readable content: it is probably drawn by script. To read it as a browser shows it, open it with open_tab and read it with get_tab_content.)";
  return description ? `${note}\n\nThe page's own description of itself: ${description}` : note;
}

/** Decodes and converts a body of a known text kind. */
export function renderBody(
  kind: "html" | "json" | "text",
  bytes: Uint8Array,
  contentType: string | null,
  url: string,
): Rendered {
  const text = decodeBody(bytes, contentType, kind === "html");
  if (kind === "html") {
    const { title, markdown, metadata, description, truncated } = extractMainContent(text, url);
    const heading = title ? `# ${title}\n\n` : "";
    if (!markdown) return { text: heading + noContentNote(description), metadata, truncated };
    return { text: title && !markdown.startsWith("# ") ? heading + markdown : markdown, metadata, truncated };
  }
  if (kind === "json") {
    try {
      return { text: JSON.stringify(JSON.parse(text), null, 2), metadata: {} };
    } catch {
      return { text, metadata: {} };
    }
  }
  return { text, metadata: {} };
}

/** What a document's own properties state, as web_fetch's metadata fields. */
function documentMetadata(doc: { title?: string; author?: string; created?: string; language?: string }) {
  const metadata: PageMetadata = {};
  if (doc.title) metadata.title = doc.title;
  if (doc.author) metadata.author = doc.author;
  if (doc.created) metadata.published_at = doc.created;
  if (doc.language) metadata.language = doc.language;
  return metadata;
}

/** A PDF as text: the title as a heading, then every page under its marker. */
export async function renderPdf(bytes: Uint8Array): Promise<Rendered> {
  const pdf = await readPdfText(bytes);
  const text = pdf.title ? `# ${pdf.title}\n\n${pdf.text}` : pdf.text;
  return { text, metadata: documentMetadata(pdf), truncated: pdf.pagesRead < pdf.totalPages };
}

/** A Word document as Markdown: the title (from its core properties) as a heading, then its text. */
export async function renderDocx(bytes: Uint8Array): Promise<Rendered> {
  const docx = await readDocxText(bytes);
  const body = htmlToMarkdown(docx.html) || "(The document has no readable text.)";
  const heading = docx.title ? `# ${docx.title}` : "";
  const text =
    !heading || body === heading || body.startsWith(`${heading}\n`) ? body : `${heading}\n\n${body}`;
  return { text, metadata: documentMetadata(docx) };
}
