/**
 * docs/api.md cannot drift from the Worker: every operation of `/openapi.json` is in its route
 * tables (method and path as the reference writes them, `{id}` and all), and every route the
 * tables name is either an operation or one of the few routes served outside the OpenAPI document,
 * each listed below with its reason and called to show it really answers.
 */
/// <reference types="vite/client" />
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import apiMd from "../../../docs/api.md?raw";
import { operations } from "../sweeps/operations";

/** Routes the Worker serves outside `/openapi.json`, on purpose; each answers (is not a 404). */
const OUTSIDE_OPENAPI: {
  route: string;
  reason: string;
  /** The path called, when the route's own has a parameter. */
  path?: string;
  /** Served by the platform from the assets binding, before the Worker runs. */
  asset?: boolean;
}[] = [
  { route: "GET /", reason: "the index: where the reference is" },
  { route: "GET /openapi.json", reason: "the OpenAPI document itself" },
  { route: "GET /docs", reason: "the readable reference, rendered from the OpenAPI document" },
  ...["POST", "GET", "DELETE"].map((m) => ({
    route: `${m} /mcp`,
    reason: "Cirrus as an MCP server: JSON-RPC over Streamable HTTP, described by MCP, not OpenAPI",
  })),
  {
    route: "GET /v1/mcp/oauth/callback",
    reason: "reached by the user's browser from the authorization server, authenticated by `state`",
  },
  {
    route: "GET /files/{token}",
    reason: "signed file links: the token is the credential, for browsers and page scripts",
    path: "/files/not-a-token",
  },
  { route: "GET /widget.js", reason: "a static asset of web/dist (the chat widget)", asset: true },
  { route: "GET /dashboard/", reason: "a static asset of web/dist (the dashboard)", asset: true },
];

/** `GET /v1/jobs/{id}` for each method of a cell like `GET/PATCH/DELETE /v1/jobs/{id}?limit=`. */
function routesOfCell(cell: string): string[] {
  return [...cell.matchAll(/`([A-Z]+(?:\/[A-Z]+)*) (\/[^`\s?]*)[^`]*`/g)].flatMap(([, methods, path]) =>
    methods.split("/").map((m) => `${m} ${path}`),
  );
}

/** The routes named in the first column of a Markdown file's tables. */
function routesOfTables(markdown: string): string[] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .flatMap((line) => routesOfCell(line.split("|")[1] ?? ""));
}

describe("docs/api.md and the Worker's routes", () => {
  it("names every operation of the OpenAPI document", async () => {
    const documented = new Set(routesOfTables(apiMd));
    const ops = (await operations()).map((op) => `${op.method} ${op.template}`);
    expect(ops.length).toBeGreaterThan(50);
    expect(ops.filter((op) => !documented.has(op))).toEqual([]);
  });

  it("names only operations of the OpenAPI document or the routes served outside it", async () => {
    const ops = new Set((await operations()).map((op) => `${op.method} ${op.template}`));
    const outside = new Set(OUTSIDE_OPENAPI.map((o) => o.route));
    const documented = routesOfTables(apiMd);
    expect(documented.filter((r) => !ops.has(r) && !outside.has(r))).toEqual([]);
    // The exceptions stay true: each is outside the document and in the doc's tables.
    expect([...outside].filter((r) => ops.has(r) || !documented.includes(r))).toEqual([]);
  });

  it("serves each route listed outside the OpenAPI document (none is a 404)", async () => {
    for (const { route, path, asset } of OUTSIDE_OPENAPI) {
      const [method, template] = route.split(" ");
      const url = `https://cirrus.test${path ?? template}`;
      const res = await (asset ? env.ASSETS : SELF).fetch(url, { method });
      await res.body?.cancel();
      expect(res.status, route).not.toBe(404);
      expect(res.status, route).toBeLessThan(500);
    }
  });

  it("reads the notation of the tables", () => {
    expect(routesOfCell("`GET/PATCH /v1/jobs/{id}?limit=`, `DELETE /v1/x` {name}")).toEqual([
      "GET /v1/jobs/{id}",
      "PATCH /v1/jobs/{id}",
      "DELETE /v1/x",
    ]);
  });
});
