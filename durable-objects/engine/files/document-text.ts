/** The text of a workspace document (PDF or DOCX) for opfs_read's text mode, by its type or its first bytes. */
import type { FileInfo } from "../../../schemas/files";
import { DOCX_TYPE, DocxError, isDocxBytes, readDocxText } from "../docx/docx-text";
import { htmlToMarkdown } from "../../extractor";
import { isPdfBytes, PDF_TYPE, PdfError, readPdfText } from "../pdf/pdf-text";
import { OCTET_STREAM } from "./content-types";
import { FilesError } from "./files-error";
import type { WorkspaceFiles } from "./workspace-files";

/** A document read as text is parsed whole in memory; larger ones are refused with a clear error. */
export const MAX_DOCUMENT_READ_BYTES = 20 * 1024 * 1024;

/** A document's text: a PDF's pages under their markers, a DOCX as Markdown. */
export interface DocumentText {
  text: string;
  /** A PDF's page count. */
  pages?: number;
  title?: string;
}

type Files = Pick<WorkspaceFiles, "open">;

/** Which document a file is, by its type or (stored as octet-stream) its bytes, and the bytes if read. */
async function documentKind(
  files: Files,
  file: FileInfo,
): Promise<{ kind: "pdf" | "docx"; bytes?: Uint8Array } | null> {
  const type = file.type.split(";")[0].trim().toLowerCase();
  if (type === PDF_TYPE) return { kind: "pdf" };
  if (type === DOCX_TYPE) return { kind: "docx" };
  if (type !== OCTET_STREAM || file.size === 0) return null;
  const head = await files.open(file.path, { offset: 0, length: Math.min(1024, file.size) });
  if (!head) return null;
  const start = new Uint8Array(await head.arrayBuffer());
  if (isPdfBytes(start)) return { kind: "pdf" };
  // A ZIP's directory is at its end: only a ZIP is read whole to look for word/document.xml.
  if (start[0] !== 0x50 || start[1] !== 0x4b || file.size > MAX_DOCUMENT_READ_BYTES) return null;
  const bytes = await readAll(files, file);
  return isDocxBytes(bytes) ? { kind: "docx", bytes } : null;
}

async function readAll(files: Files, file: FileInfo): Promise<Uint8Array> {
  const body = await files.open(file.path);
  if (!body) throw new FilesError("not_found", `"${file.path}" was deleted while being read.`);
  return new Uint8Array(await body.arrayBuffer());
}

/** The text of a PDF or DOCX file, or null when the file is neither; throws when it cannot be read. */
export async function readDocumentText(files: Files, file: FileInfo): Promise<DocumentText | null> {
  const found = await documentKind(files, file);
  if (!found) return null;
  const { kind } = found;
  if (file.size > MAX_DOCUMENT_READ_BYTES) {
    const message = `"${file.path}" is a ${kind.toUpperCase()} of ${file.size} bytes; at most ${MAX_DOCUMENT_READ_BYTES} bytes of ${kind.toUpperCase()} are read as text.`;
    throw kind === "pdf" ? new PdfError("pdf_too_large", message) : new DocxError("docx_too_large", message);
  }
  const bytes = found.bytes ?? (await readAll(files, file));
  if (kind === "pdf") {
    const pdf = await readPdfText(bytes);
    return { text: pdf.text, pages: pdf.totalPages, ...(pdf.title && { title: pdf.title }) };
  }
  const docx = await readDocxText(bytes);
  return { text: htmlToMarkdown(docx.html), ...(docx.title && { title: docx.title }) };
}
