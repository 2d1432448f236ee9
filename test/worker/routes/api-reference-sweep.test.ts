/**
 * Every operation in the API reference, given malformed input, answers a 4xx in the one error shape
 * and never a 5xx: junk in each path parameter, bad values in each query parameter, bodies that are
 * not JSON objects, and each body field given a value of the wrong type, control characters or 300 KB.
 * Operations are read from `/openapi.json`, so a route added later is swept too.
 */
import { describe, expect, it } from "vitest";
import { api, newWorkspaceKey } from "../helpers";

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema> };
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Reference {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface Try {
  method: string;
  path: string;
  body?: string;
}

const PATH_JUNK = ["nope", "%2e%2e%2fx", "a".repeat(3000), "%00", "x%20y"];
const QUERY_JUNK = ["-1", "abc", "9".repeat(400), "%ZZ", "1.5", "null"];
const BODY_JUNK = ["{nope", "[]", "null", '"x"', "1e999", `{"a":${"[".repeat(2000)}`];

const resolve = (ref: Reference, s: Schema): Schema =>
  s.$ref ? resolve(ref, ref.components?.schemas?.[s.$ref.split("/").pop() ?? ""] ?? {}) : s;

/** One body per field and kind of wrong value: the wrong type, control characters, 300 KB of text. */
function wrongFields(ref: Reference, schema: Schema): string[] {
  const bodies: string[] = [];
  for (const [key, field] of Object.entries(resolve(ref, schema).properties ?? {})) {
    const t = resolve(ref, field).type;
    const types = Array.isArray(t) ? t : [t];
    const wrong = types.includes("string") ? { nested: [1] } : types.includes("array") ? 7 : "x";
    for (const value of [wrong, "\u0000\u001b\u202e", "a".repeat(300_000)])
      bodies.push(JSON.stringify({ [key]: value }));
  }
  return bodies;
}

/** The requests for one operation; `fill` turns its path template into a path. */
function triesOf(
  ref: Reference,
  method: string,
  template: string,
  op: Operation,
  fill: (p: string) => string,
): Try[] {
  const m = method.toUpperCase();
  const path = fill(template);
  const tries: Try[] = PATH_JUNK.filter(() => template.includes("{")).map((junk) => ({
    method: m,
    path: template.replace(/\{[^}]+\}/g, junk),
  }));
  for (const q of (op.parameters ?? []).filter((p) => p.in === "query"))
    for (const v of QUERY_JUNK) tries.push({ method: m, path: `${path}?${q.name}=${v}` });
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body)
    for (const b of [...BODY_JUNK, ...wrongFields(ref, body)]) tries.push({ method: m, path, body: b });
  return tries;
}

describe("the API reference's operations on malformed input", () => {
  it("answer a 4xx in the one error shape, never a 5xx", async () => {
    const { id: workspace, key } = await newWorkspaceKey("sweep");
    const as = (path: string) => (path.startsWith("/v1/workspaces") ? undefined : key);
    const made = async (path: string, json: unknown) =>
      ((await (await api(path, { method: "POST", json, token: as(path) })).json()) as { id: string }).id;
    const conversation = await made("/v1/conversations", {});
    const job = await made("/v1/jobs", { name: "N", prompt: "Go.", schedule: "0 3 * * *" });
    const fill = (p: string) =>
      p
        .replace("/conversations/{id}", `/conversations/${conversation}`)
        .replace("/jobs/{id}", `/jobs/${job}`)
        .replace("/workspaces/{id}", `/workspaces/${workspace}`)
        .replace("{path}", "notes.md")
        .replace(/\{[^}]+\}/g, "nope");
    const ref = (await (await api("/openapi.json", { token: null })).json()) as Reference;
    const tries = Object.entries(ref.paths).flatMap(([template, methods]) =>
      Object.entries(methods).flatMap(([method, op]) => triesOf(ref, method, template, op, fill)),
    );
    // Deletions last, so every other operation meets the conversation and job that exist.
    tries.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    const wrong: string[] = [];
    for (const t of tries) {
      const headers = t.body === undefined ? undefined : { "content-type": "application/json" };
      const res = await api(t.path, { method: t.method, body: t.body, headers, token: as(t.path) });
      const text = res.headers.get("content-type")?.includes("event-stream") ? "" : await res.text();
      if (text === "") await res.body?.cancel();
      const shaped = /^\{"error":\{"code":"[a-z_]+","message":"/.test(text);
      if (res.status >= 500 || (res.status >= 400 && !shaped))
        wrong.push(
          `${t.method} ${t.path.slice(0, 80)} ${String(t.body).slice(0, 40)} → ${res.status} ${text.slice(0, 120)}`,
        );
    }
    expect(tries.length).toBeGreaterThan(600);
    expect(wrong).toEqual([]);
  });
});
