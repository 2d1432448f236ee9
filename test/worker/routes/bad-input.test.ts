import { describe, expect, it } from "vitest";
import { api } from "../helpers";

/** Every answer to bad input is a 4xx in the one error shape, never a 500. */
async function expectClientError(res: Response, label: string): Promise<void> {
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code, label).toBe("string");
  expect(typeof body.error?.message, label).toBe("string");
}

describe("bad input on the settings, widget, files and jobs routes", () => {
  it("answers 4xx with the error shape", async () => {
    const raw = (path: string, method: string, body: string) =>
      api(path, { method, body, headers: { "content-type": "application/json" } });
    const cases: [string, Promise<Response>][] = [
      ["settings: not JSON", raw("/v1/settings", "PUT", "{nope")],
      ["settings: an array", raw("/v1/settings", "PUT", "[1,2]")],
      ["settings: agent not an object", api("/v1/settings", { method: "PUT", json: { agent: "pirate" } })],
      [
        "settings: widget language",
        api("/v1/settings", { method: "PUT", json: { widget: { language: "xx" } } }),
      ],
      [
        "settings: domains",
        api("/v1/settings", { method: "PUT", json: { allowed_domains: ["http://a b"] } }),
      ],
      ["widget config with a secret key", api("/v1/widget/config")],
      ["widget session with a secret key", api("/v1/widget/session", { method: "POST" })],
      ["conversation file: bad id", api("/v1/conversations/..%2F..%2Fx/files/a.md")],
      ["conversation file: unknown conversation", api("/v1/conversations/conv_doesnotexist00/files/a.md")],
      ["conversation file: bad escape", api("/v1/conversations/conv_doesnotexist00/files/%E0%A4%A")],
      ["jobs: not JSON", raw("/v1/jobs", "POST", "{")],
      ["jobs: empty", api("/v1/jobs", { method: "POST", json: {} })],
      ["jobs: unknown id", api("/v1/jobs/job_nope", { method: "PATCH", json: { name: "x" } })],
      ["jobs: runs of unknown id", api("/v1/jobs/job_nope/runs")],
      ["jobs: run unknown id", api("/v1/jobs/job_nope/run", { method: "POST" })],
      ["jobs: bad limit", api("/v1/jobs?limit=abc")],
      ["keys: garbage", api("/v1/keys", { method: "POST", json: { name: 5, type: "root" } })],
      ["keys: unknown id", api("/v1/keys/key_nope", { method: "DELETE" })],
    ];
    for (const [label, res] of cases) await expectClientError(await res, label);
  });
});
