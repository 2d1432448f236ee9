import { describe, expect, it } from "vitest";
import { api } from "../helpers";

/** Percent-encodings that do not decode: a cut UTF-8 sequence, a lone byte, non-hex, a bare %. */
const MALFORMED = ["%E0%A4%A", "%C3", "%ZZ", "abc%", "%E0%A4%A/x", "%FF%FE"];

type Doc = { paths: Record<string, Record<string, unknown>> };

async function expectInvalidPath(method: string, path: string, token?: string | null) {
  const res = await api(path, { method, token, ...(method === "GET" ? {} : { json: {} }) });
  expect(res.status, `${method} ${path}`).toBe(400);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body), `${method} ${path}`).toEqual(["error"]);
  expect(body.error.code, `${method} ${path}`).toBe("invalid_path");
  expect(body.error.message).toContain("malformed percent-encoding");
}

describe("malformed percent-encoding in the path", () => {
  it("answers the reported path with 400 invalid_path in the one error shape, not a 500", async () => {
    await expectInvalidPath("GET", "/v1/conversations/%E0%A4%A/events");
  });

  it("answers 400 on every route of the API reference, in every parameter, with every method", async () => {
    const doc = (await (await api("/openapi.json", { token: null })).json()) as Doc;
    const templates = Object.entries(doc.paths).filter(([path]) => path.includes("{"));
    expect(templates.length).toBeGreaterThan(30);
    for (const [template, methods] of templates) {
      for (const method of Object.keys(methods)) {
        for (const bad of MALFORMED) {
          await expectInvalidPath(method.toUpperCase(), template.replace(/\{[^}]+\}/g, bad));
        }
      }
    }
  });

  it("answers 400 outside the reference too: file paths, signed links, the MCP endpoint, unknown routes, any caller", async () => {
    const paths = [
      "/v1/files/notes/%E0%A4%A.md",
      "/v1/conversations/conv_x/files/a/%C3",
      "/files/%ZZ",
      "/mcp/%E0",
      "/v1/no-such-route/%",
      "/%E0%A4%A",
    ];
    for (const path of paths) {
      await expectInvalidPath("GET", path);
      // Before authentication: no key, a wrong key and a publishable key get the same answer.
      await expectInvalidPath("GET", path, null);
      await expectInvalidPath("GET", path, "sk_default_wrongwrongwrongwrong");
      await expectInvalidPath("GET", path, "pk_default_publishablepublishable");
    }
  });

  it("still serves paths whose escapes decode, encoded slashes and non-ASCII included", async () => {
    expect((await api("/v1/conversations/conv_%C3%A9t%C3%A9")).status).toBe(404);
    expect((await api("/v1/conversations/a%2Fb/events")).status).toBe(404);
    const put = await api("/v1/files/caf%C3%A9/men%C3%BC.md", { method: "PUT", body: "soup" });
    expect(put.status).toBe(201);
    const get = await api("/v1/files/caf%C3%A9/men%C3%BC.md");
    expect(get.status).toBe(200);
    expect(await get.text()).toBe("soup");
  });
});
