import { describe, expect, it } from "vitest";
import { api } from "../helpers";

/** One bad request and the exact answer a client must get for it. */
interface Case {
  label: string;
  res: Promise<Response>;
  status: number;
  code: string;
  /** A fragment of the message that names what was wrong. */
  says: string;
}

const raw = (path: string, method: string, body: string) =>
  api(path, { method, body, headers: { "content-type": "application/json" } });

describe("bad input on the settings, widget, files and jobs routes", () => {
  it("answers each with its exact status and code in the one error shape", async () => {
    const cases: Case[] = [
      {
        label: "settings: not JSON",
        res: raw("/v1/settings", "PUT", "{nope"),
        status: 400,
        code: "invalid_request",
        says: "Malformed JSON",
      },
      {
        label: "settings: an array",
        res: raw("/v1/settings", "PUT", "[1,2]"),
        status: 400,
        code: "invalid_request",
        says: "expected object, received array",
      },
      {
        label: "settings: agent not an object",
        res: api("/v1/settings", { method: "PUT", json: { agent: "pirate" } }),
        status: 400,
        code: "invalid_request",
        says: "at agent",
      },
      {
        label: "settings: widget language",
        res: api("/v1/settings", { method: "PUT", json: { widget: { language: "xx" } } }),
        status: 400,
        code: "invalid_request",
        says: "at widget.language",
      },
      {
        label: "settings: domains",
        res: api("/v1/settings", { method: "PUT", json: { allowed_domains: ["http://a b"] } }),
        status: 400,
        code: "invalid_request",
        says: "at allowed_domains[0]",
      },
      {
        label: "widget config with a secret key",
        res: api("/v1/widget/config"),
        status: 403,
        code: "forbidden",
        says: "publishable key",
      },
      {
        label: "widget session with a secret key",
        res: api("/v1/widget/session", { method: "POST" }),
        status: 403,
        code: "forbidden",
        says: "publishable key",
      },
      {
        label: "conversation file: bad id",
        res: api("/v1/conversations/..%2F..%2Fx/files/a.md"),
        status: 404,
        code: "not_found",
        says: "No such conversation",
      },
      {
        label: "conversation file: unknown conversation",
        res: api("/v1/conversations/conv_doesnotexist00/files/a.md"),
        status: 404,
        code: "not_found",
        says: "has not written that file",
      },
      {
        label: "conversation file: bad escape",
        res: api("/v1/conversations/conv_doesnotexist00/files/%E0%A4%A"),
        status: 400,
        code: "invalid_path",
        says: "percent-encoding",
      },
      {
        label: "jobs: not JSON",
        res: raw("/v1/jobs", "POST", "{"),
        status: 400,
        code: "invalid_request",
        says: "Malformed JSON",
      },
      {
        label: "jobs: empty",
        res: api("/v1/jobs", { method: "POST", json: {} }),
        status: 400,
        code: "invalid_request",
        says: "at schedule",
      },
      {
        label: "jobs: unknown id",
        res: api("/v1/jobs/job_nope", { method: "PATCH", json: { name: "x" } }),
        status: 404,
        code: "not_found",
        says: "No job job_nope",
      },
      {
        label: "jobs: runs of unknown id",
        res: api("/v1/jobs/job_nope/runs"),
        status: 404,
        code: "not_found",
        says: "No job job_nope",
      },
      {
        label: "jobs: run unknown id",
        res: api("/v1/jobs/job_nope/run", { method: "POST" }),
        status: 404,
        code: "not_found",
        says: "No job job_nope",
      },
      {
        label: "jobs: bad limit",
        res: api("/v1/jobs?limit=abc"),
        status: 400,
        code: "invalid_request",
        says: "at limit",
      },
      {
        label: "keys: garbage",
        res: api("/v1/keys", { method: "POST", json: { name: 5, type: "root" } }),
        status: 400,
        code: "invalid_request",
        says: "at type",
      },
      {
        label: "keys: unknown id",
        res: api("/v1/keys/key_nope", { method: "DELETE" }),
        status: 404,
        code: "not_found",
        says: "No key key_nope",
      },
      ...oneLineCases(),
    ];
    for (const c of cases) {
      const res = await c.res;
      expect(res.status, c.label).toBe(c.status);
      expect(res.headers.get("content-type"), c.label).toContain("application/json");
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(Object.keys(body), c.label).toEqual(["error"]);
      expect(body.error.code, c.label).toBe(c.code);
      expect(body.error.message, c.label).toContain(c.says);
    }
  });
});

/** Names and titles people read are one line: control characters and bidirectional overrides are refused. */
function oneLineCases(): Case[] {
  const job = { prompt: "Go.", schedule: "0 3 * * *" };
  const bad: [string, string, unknown, string][] = [
    ["title with a right-to-left override", "/v1/conversations", { title: "invoice\u202Egpj.exe" }, "title"],
    ["model with a NUL", "/v1/conversations", { model: "gpt\u0000" }, "model"],
    ["job name with a line break", "/v1/jobs", { ...job, name: "Nightly\nreport" }, "name"],
    ["key name with an escape character", "/v1/keys", { name: "ci\u001b[31m" }, "name"],
    ["workspace name with a bidi isolate", "/v1/workspaces", { name: "acme\u2067x" }, "name"],
    ["job name with a Unicode line separator", "/v1/jobs", { ...job, name: "Nightly\u2028report" }, "name"],
  ];
  return bad.map(([label, path, json, field]) => ({
    label,
    res: api(path, { method: "POST", json }),
    status: 400,
    code: "invalid_request",
    says: `must be one line of text: no control characters, line breaks or bidirectional overrides\n  → at ${field}`,
  }));
}
