import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isPdfBytes, pdfDate, readPdfText } from "../../../../durable-objects/engine/pdf/pdf-text";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../fixtures/pdf/${name}.pdf`, import.meta.url)));

describe("readPdfText", () => {
  it("stops at the page cap and says which pages were not read", async () => {
    const pdf = await readPdfText(fixture("report"), 2);
    expect(pdf).toMatchObject({ totalPages: 3, pagesRead: 2, title: "Cirrus Field Report" });
    expect(pdf.text).toContain("--- Page 2 of 3 ---");
    expect(pdf.text).not.toContain("--- Page 3 of 3 ---");
    expect(pdf.text.endsWith("[Pages 3-3 of 3 not read: at most 2 pages of a PDF are read.]")).toBe(true);
  });

  it("recognises PDF bytes and nothing else", () => {
    expect(isPdfBytes(fixture("scan"))).toBe(true);
    expect(isPdfBytes(new TextEncoder().encode("<!doctype html><p>%PDF in text later"))).toBe(false);
  });

  it("turns PDF dates into ISO 8601", () => {
    expect(pdfDate("D:20251204103000+01'00'")).toBe("2025-12-04T09:30:00.000Z");
    expect(pdfDate("D:2024")).toBe("2024-01-01T00:00:00.000Z");
    expect(pdfDate("yesterday")).toBeUndefined();
  });
});
