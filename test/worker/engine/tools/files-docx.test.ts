import { beforeAll, describe, expect, it } from "vitest";
import { callTool, storeFixture } from "../../files-helpers";
import { createConversation } from "../../helpers";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let conv: string;
const storeDocx = (route: string, path: string, type = DOCX_TYPE) =>
  storeFixture(conv, `/web/docx/${route}`, path, type);

beforeAll(async () => {
  conv = await createConversation("files-docx");
  await storeDocx("handbook", "docs/handbook.docx");
  await storeDocx("handbook", "docs/handbook.bin", "application/octet-stream");
  await storeDocx("corrupt", "docs/corrupt.docx");
  await storeDocx("encrypted", "docs/locked.docx");
  await storeDocx("zip", "docs/archive.bin", "application/octet-stream");
});

describe("opfs_read of a Word document (DOCX)", () => {
  it("returns the DOCX as Markdown lines in text mode, with its title", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/handbook.docx", mode: "text" });
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({
      path: "docs/handbook.docx",
      type: DOCX_TYPE,
      mode: "text",
      offset: 1,
      next_offset: null,
      title: "Cirrus Site Handbook",
    });
    expect(r.result.pages).toBeUndefined();
    const lines = r.result.content.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "# Cirrus Site Handbook",
      "",
      "This handbook explains how a river site is surveyed. Alpha marker: handbook-intro-one.",
    ]);
    expect(r.result.total_lines).toBe(lines.length);
    expect(lines).toContain("| North bank | 1.2 | 0.8 |");
    expect(lines).toContain("- Flow meter");
    expect(lines).toContain("2. Measure the depth at three points");
  });

  it("pages the DOCX's text with offset and limit like any text", async () => {
    const all = (await callTool(conv, "opfs_read", { path: "docs/handbook.docx", mode: "text" })).result;
    const at = all.content.split("\n").indexOf("## Measurements") + 1;
    const r = await callTool(conv, "opfs_read", {
      path: "docs/handbook.docx",
      mode: "text",
      offset: at,
      limit: 4,
    });
    expect(r.result).toMatchObject({
      offset: at,
      lines: 4,
      total_lines: all.total_lines,
      next_offset: at + 4,
    });
    expect(r.result.content).toBe(
      "## Measurements\n\n| Site | Depth (m) | Flow (m³/s) |\n| --- | --- | --- |",
    );
    expect(r.result.note).toContain(`Showing lines ${at}-${at + 3} of ${all.total_lines}`);
  });

  it("reads a DOCX stored as application/octet-stream as a DOCX in text mode", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/handbook.bin", mode: "text" });
    expect(r.result.title).toBe("Cirrus Site Handbook");
    expect(r.result.content.startsWith("# Cirrus Site Handbook\n\nThis handbook")).toBe(true);
  });

  it("keeps returning a signed link for a DOCX in auto mode", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/handbook.docx" });
    expect(r.result.mode).toBe("blob");
    expect(r.result.url).toMatch(/^https:\/\/cirrus\.test\//);
    expect(r.result.content).toBeUndefined();
  });

  it("says a damaged DOCX cannot be read as text", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/corrupt.docx", mode: "text" });
    expect(r.status).toBe(422);
    expect(r.error).toEqual({
      code: "docx_invalid",
      message: "The file is not a readable DOCX: it is not a complete ZIP archive (damaged or cut short).",
    });
  });

  it("says a password-protected DOCX cannot be read as text", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/locked.docx", mode: "text" });
    expect(r.status).toBe(422);
    expect(r.error?.code).toBe("docx_encrypted");
  });

  it("reads an octet-stream ZIP that is no Word document as plain bytes, not as a DOCX", async () => {
    const r = await callTool(conv, "opfs_read", { path: "docs/archive.bin", mode: "text" });
    expect(r.status).toBe(200);
    expect(r.result.title).toBeUndefined();
    expect(r.result.content.startsWith("PK\u0003\u0004")).toBe(true);
  });
});
