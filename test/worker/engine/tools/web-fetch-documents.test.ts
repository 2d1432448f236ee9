import { describe, expect, it } from "vitest";
import { page, webFetch, webFetchWith } from "./web-helpers";

const REPORT_PAGES = [
  "--- Page 1 of 3 ---\n\nCirrus Field Report\nPage one covers the river survey.",
  "--- Page 2 of 3 ---\n\nSecond section\nPage two lists the measurements.",
  "--- Page 3 of 3 ---\n\nConclusions\nPage three closes the report.",
];

describe("web_fetch on PDFs", () => {
  it("returns a Chromium-printed PDF's text page by page under the title from its metadata", async () => {
    const { status, body } = await webFetch({ url: page("/web/pdf/report") });
    expect(status).toBe(200);
    const r = body.result;
    expect(r).toMatchObject({
      content_type: "application/pdf",
      truncated: false,
      title: "Cirrus Field Report",
      language: "en-US",
      final_url: page("/web/pdf/report"),
    });
    expect(r.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    expect(r.content.startsWith("# Cirrus Field Report\n\n--- Page 1 of 3 ---")).toBe(true);
    const at = REPORT_PAGES.map((p) => r.content.indexOf(p));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(r.content).toContain("Gamma marker: conclusions-three-final.");
  });

  it("recognises a PDF served as application/octet-stream by its bytes", async () => {
    const { body } = await webFetch({ url: page("/web/pdf/octet") });
    expect(body.result.content_type).toBe("application/pdf");
    expect(body.result.content).toContain(REPORT_PAGES[1]);
  });

  it("recognises a PDF served without a Content-Type by its bytes", async () => {
    const { body } = await webFetch({ url: page("/web/pdf/untyped") });
    expect(body.result.content_type).toBe("application/pdf");
    expect(body.result.title).toBe("Cirrus Field Report");
  });

  it("cuts a PDF's text at max_length and says it is truncated", async () => {
    const { body } = await webFetch({ url: page("/web/pdf/report"), max_length: 60 });
    expect(body.result.content).toBe("# Cirrus Field Report\n\n--- Page 1 of 3 ---\n\nCirrus Field Rep");
    expect(body.result.truncated).toBe(true);
  });

  it("says an encrypted PDF cannot be read", async () => {
    const { status, body } = await webFetch({ url: page("/web/pdf/encrypted") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("pdf_encrypted");
    expect(body.error.message).toBe(
      "The PDF is encrypted with a password, so its text cannot be read. Ask the user for an unprotected copy.",
    );
  });

  it("says an image-only PDF has no text layer", async () => {
    const { status, body } = await webFetch({ url: page("/web/pdf/scan") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("pdf_no_text");
    expect(body.error.message).toBe(
      "The PDF has 2 pages but no text layer: it is image-only (scanned), so there is no text to read without OCR.",
    );
  });

  it("says a file sent as a PDF that is not one is not readable", async () => {
    const { status, body } = await webFetch({ url: page("/web/pdf") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("pdf_invalid");
    expect(body.error.message).toMatch(/^The file is not a readable PDF: /);
  });

  it("refuses a PDF larger than the PDF byte cap instead of reading it cut short", async () => {
    const outcome = await webFetchWith({ fetchMaxPdfBytes: 10_000 }, { url: page("/web/pdf/report") });
    expect(outcome).toMatchObject({ kind: "result", isError: true, code: "pdf_too_large" });
    expect(JSON.stringify(outcome)).toContain("larger than web_fetch's PDF limit of 9.8 KB");
  });
});

describe("web_fetch metadata", () => {
  it("reads title, authors, publication time, site and language from JSON-LD before OpenGraph", async () => {
    const { body } = await webFetch({ url: page("/web/meta/json-ld") });
    expect(body.result).toMatchObject({
      content_type: "text/html",
      title: "How the tides work",
      author: "Ada Brook, Sam Reed",
      published_at: "2025-09-04T08:30:00.000Z",
      site_name: "Coast Weekly",
      language: "en-GB",
    });
    expect(body.result.content.startsWith("# ")).toBe(true);
    expect(body.result.content).toContain("The moon pulls the oceans towards it");
  });

  it("reads author, date, site and locale from meta and OpenGraph tags", async () => {
    const { body } = await webFetch({ url: page("/web/meta/tags") });
    expect(body.result).toMatchObject({
      title: "Harbour lights",
      author: "Jo Marsh",
      published_at: "2024-03-05",
      site_name: "Harbour Times",
      language: "pt-BR",
    });
  });

  it("leaves out fields a page does not state", async () => {
    const { body } = await webFetch({ url: page("/web/article") });
    expect(body.result.title).toBe("Rivers of Europe");
    for (const field of ["author", "published_at", "site_name", "language"])
      expect(body.result).not.toHaveProperty(field);
  });
});
