/**
 * PDF → text with PDF.js (packaged for serverless runtimes by unpdf): every page in order under a
 * page marker, the title and author from the document's info, caps on pages, and clear errors for
 * encrypted and image-only (scanned) documents.
 */
import { CodedError } from "../errors";

/** At most this many pages of one PDF are read; the rest are reported, not read. */
export const MAX_PDF_PAGES = 200;
/** The media type web_fetch reports for a PDF. */
export const PDF_TYPE = "application/pdf";

/** Why a PDF gives no text. */
export type PdfErrorCode = "pdf_encrypted" | "pdf_no_text" | "pdf_invalid" | "pdf_too_large";

/** A PDF that cannot be read as text (the message says why, for the model). */
export class PdfError extends CodedError<PdfErrorCode> {}

/** A PDF's text and what its info dictionary says. */
export interface PdfText {
  /** Page markers (`--- Page 2 of 9 ---`) each followed by that page's text. */
  text: string;
  totalPages: number;
  pagesRead: number;
  title?: string;
  author?: string;
  /** The document's creation date, ISO 8601. */
  created?: string;
  language?: string;
}

/** Whether bytes are a PDF (`%PDF-` within the first KiB, as readers accept). */
export function isPdfBytes(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return /%PDF-\d/.test(head) && !head.trimStart().startsWith("<");
}

/** The marker line that opens page `n` of `total`. */
export const pageMarker = (n: number, total: number) => `--- Page ${n} of ${total} ---`;

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

const infoString = (v: unknown): string | undefined => {
  const s = typeof v === "string" ? v.replace(/\s+/g, " ").trim() : "";
  return s || undefined;
};

/** A PDF date (`D:20251204103000+01'00'`) as ISO 8601. */
export function pdfDate(raw: unknown): string | undefined {
  const m =
    typeof raw === "string" &&
    raw.match(/^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/);
  if (!m) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = m;
  const zone = !sign || sign.toUpperCase() === "Z" ? "Z" : `${sign}${oh}:${om}`;
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** Reads a PDF's text, at most `maxPages` pages; throws PdfError when it has none to give. */
export async function readPdfText(bytes: Uint8Array, maxPages = MAX_PDF_PAGES): Promise<PdfText> {
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (err) {
    if ((err as Error)?.name === "PasswordException")
      throw new PdfError(
        "pdf_encrypted",
        "The PDF is encrypted with a password, so its text cannot be read. Ask the user for an unprotected copy.",
        { cause: err },
      );
    throw new PdfError("pdf_invalid", `The file is not a readable PDF: ${(err as Error).message}`, {
      cause: err,
    });
  }
  try {
    const totalPages = pdf.numPages;
    const pagesRead = Math.min(totalPages, maxPages);
    const parts: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pagesRead; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const text = (content.items as TextItemLike[])
        .map((i) => (i.str ?? "") + (i.hasEOL ? "\n" : ""))
        .join("")
        .replace(/[^\S\n]+/g, " ")
        .replace(/ ?\n ?/g, "\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      chars += text.length;
      parts.push(`${pageMarker(n, totalPages)}\n\n${text}`);
    }
    if (chars === 0)
      throw new PdfError(
        "pdf_no_text",
        `The PDF has ${totalPages} page${totalPages === 1 ? "" : "s"} but no text layer: it is image-only (scanned), so there is no text to read without OCR.`,
      );
    if (pagesRead < totalPages)
      parts.push(
        `[Pages ${pagesRead + 1}-${totalPages} of ${totalPages} not read: at most ${maxPages} pages of a PDF are read.]`,
      );
    const { info } = (await pdf.getMetadata().catch(() => ({ info: {} }))) as {
      info: Record<string, unknown>;
    };
    return {
      text: parts.join("\n\n"),
      totalPages,
      pagesRead,
      title: infoString(info.Title),
      author: infoString(info.Author),
      created: pdfDate(info.CreationDate),
      language: infoString(info.Language),
    };
  } finally {
    await pdf.loadingTask.destroy();
  }
}
