import { beforeAll, describe, expect, it } from "vitest";
import { callTool, storeFixture } from "../../files-helpers";
import { createConversation } from "../../helpers";

let conv: string;
const storePdf = (fixture: string, path: string, type = "application/pdf") =>
  storeFixture(conv, `/web/pdf/${fixture}`, path, type);

beforeAll(async () => {
  conv = await createConversation("files-pdf");
  await storePdf("report", "docs/report.pdf");
  await storePdf("report", "docs/report.bin", "application/octet-stream");
  await storePdf("encrypted", "docs/locked.pdf");
  await storePdf("scan", "docs/scan.pdf");
});

describe("opfs_read of a PDF", () => {
  it("returns the PDF's text with page markers in text mode", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/report.pdf", mode: "text" });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({
      path: "docs/report.pdf",
      type: "application/pdf",
      mode: "text",
      offset: 1,
      next_offset: null,
      pages: 3,
      title: "Cirrus Field Report",
    });
    const lines = r.result.content.split("\n");
    expect(lines[0]).toBe("--- Page 1 of 3 ---");
    expect(r.result.total_lines).toBe(lines.length);
    expect(lines).toContain("--- Page 3 of 3 ---");
    expect(r.result.content).toContain("Gamma marker: conclusions-three-final.");
  });

  it("pages the PDF's text with offset and limit like any text", async () => {
    const all = (await callTool(conv, "opfs_read", { path: "docs/report.pdf", mode: "text" })).result;
    const at = all.content.split("\n").indexOf("--- Page 2 of 3 ---") + 1;
    const r = await callTool(conv, "opfs_read", {
      path: "docs/report.pdf",
      mode: "text",
      offset: at,
      limit: 3,
    });
    expect(r.result).toMatchObject({
      offset: at,
      lines: 3,
      total_lines: all.total_lines,
      next_offset: at + 3,
    });
    expect(r.result.content).toBe("--- Page 2 of 3 ---\n\nSecond section");
    expect(r.result.note).toContain(`Showing lines ${at}-${at + 2} of ${all.total_lines}`);
  });

  it("reads a PDF stored as application/octet-stream as a PDF in text mode", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/report.bin", mode: "text" });
    expect(r.result.pages).toBe(3);
    expect(r.result.content.startsWith("--- Page 1 of 3 ---\n\nCirrus Field Report")).toBe(true);
  });

  it("keeps returning a signed link for a PDF in auto mode", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/report.pdf" });
    expect(r.result.mode).toBe("blob");
    expect(r.result.url).toMatch(/^https:\/\/cirrus\.test\//);
    expect(r.result.content).toBeUndefined();
  });

  it("says an encrypted PDF cannot be read as text", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/locked.pdf", mode: "text" });
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe("pdf_encrypted");
  });

  it("says an image-only PDF has no text", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/scan.pdf", mode: "text" });
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe("pdf_no_text");
    expect(r.error?.message).toContain("image-only (scanned)");
  });
});
