import { describe, expect, it } from "vitest";
import { page, webFetch, webFetchWith } from "./web-helpers";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** The Markdown of test/fixtures/docx/handbook.docx (made by scripts/make-docx-fixtures.ts). */
const HANDBOOK = [
  "# Cirrus Site Handbook",
  "This handbook explains how a river site is surveyed. Alpha marker: handbook-intro-one.",
  "## Equipment",
  "- Depth gauge\n- Flow meter\n- Waterproof notebook",
  "## Survey steps",
  "1. Mark the site on the map\n2. Measure the depth at three points\n3. Record the flow rate",
  "## Measurements",
  "| Site | Depth (m) | Flow (m³/s) |\n| --- | --- | --- |\n| North bank | 1.2 | 0.8 |\n| South bank | 2.5 | 1.9 |",
  "### Further reading",
  "The survey method is described in [the survey guide](https://example.com/survey-guide). Omega marker: handbook-closing-final.",
].join("\n\n");

describe("web_fetch on Word documents (DOCX)", () => {
  it("returns a DOCX as Markdown with its headings, lists, table and link, titled from its core properties", async () => {
    const { status, body } = await webFetch({ url: page("/web/docx/handbook") });
    expect(status).toBe(200);
    const r = body.result;
    expect(r).toMatchObject({
      url: page("/web/docx/handbook"),
      content_type: DOCX_TYPE,
      truncated: false,
      final_url: page("/web/docx/handbook"),
      title: "Cirrus Site Handbook",
      author: "Ada Brook",
    });
    expect(r.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.content).toBe(HANDBOOK);
  });

  it("recognises a DOCX served as application/octet-stream by its bytes", async () => {
    const { status, body } = await webFetch({ url: page("/web/docx/octet") });
    expect(status).toBe(200);
    expect(body.result.content_type).toBe(DOCX_TYPE);
    expect(body.result.title).toBe("Cirrus Site Handbook");
    expect(body.result.content).toBe(HANDBOOK);
  });

  it("cuts a DOCX's Markdown at max_length and says it is truncated", async () => {
    const { body } = await webFetch({ url: page("/web/docx/handbook"), max_length: 40 });
    expect(body.result.content).toBe("# Cirrus Site Handbook\n\nThis handbook ex");
    expect(body.result.truncated).toBe(true);
  });

  it("says a DOCX cut short is damaged", async () => {
    const { status, body } = await webFetch({ url: page("/web/docx/corrupt") });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: "docx_invalid",
      message: "The file is not a readable DOCX: it is not a complete ZIP archive (damaged or cut short).",
    });
  });

  it("says a ZIP sent as a DOCX that has no Word document in it is not readable", async () => {
    const { status, body } = await webFetch({ url: page("/web/docx/zip") });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: "docx_invalid",
      message: "The file is not a readable DOCX: the ZIP archive has no word/document.xml.",
    });
  });

  it("says a password-protected DOCX cannot be read", async () => {
    const { status, body } = await webFetch({ url: page("/web/docx/encrypted") });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: "docx_encrypted",
      message:
        "The Word document is encrypted with a password, so its text cannot be read. Ask the user for an unprotected copy.",
    });
  });

  it("refuses a DOCX larger than the DOCX byte cap instead of reading it cut short", async () => {
    const outcome = await webFetchWith({ fetchMaxDocxBytes: 4_000 }, { url: page("/web/docx/handbook") });
    expect(outcome).toMatchObject({ kind: "result", isError: true, code: "docx_too_large" });
    expect(JSON.stringify(outcome)).toContain(
      "larger than web_fetch's DOCX limit of 3.9 KB (WEB_FETCH_MAX_DOCX_BYTES)",
    );
  });

  it("reads a DOCX sent as octet-stream up to the DOCX cap, past the page byte cap", async () => {
    const outcome = await webFetchWith(
      { fetchMaxBytes: 1_000, fetchMaxDocxBytes: 50_000 },
      { url: page("/web/docx/octet") },
    );
    expect(outcome).toMatchObject({ kind: "result", isError: false });
    expect(JSON.stringify(outcome)).toContain("Omega marker: handbook-closing-final.");
  });
});
