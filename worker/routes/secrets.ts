/** The workspace secret store: write-only values for type_secret; only names and settings are ever listed. */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody } from "../../schemas/api";
import { PutSecret, SecretInfo, SecretName } from "../../schemas/browser-api";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { workspaceStub } from "../stubs";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const NameParam = z.object({ name: SecretName });
const app = createApp();

app.openapi(
  createRoute({
    method: "put",
    path: "/secrets/{name}",
    summary:
      "Set a secret: a value, or a TOTP seed (kind totp), bound to allowed_domains (its value is never returned)",
    tags: ["Secrets"],
    request: {
      params: NameParam,
      body: jsonBody(PutSecret),
    },
    responses: {
      200: json(z.object({ name: z.string(), set: z.literal(true) }), "Stored"),
      409: json(ErrorBody, "Too many secrets (`too_many_secrets`): delete one first"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    return c.json(unwrap(await stub.putSecret(name, c.req.valid("json"))), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/secrets",
    summary: "List the secrets' names, kinds and allowed_domains (never values)",
    tags: ["Secrets"],
    responses: { 200: json(z.object({ data: z.array(SecretInfo) }), "Names"), ...commonErrors },
  }),
  async (c) => {
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    return c.json({ data: await stub.secretNames() }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/secrets/{name}",
    summary: "Delete a secret",
    tags: ["Secrets"],
    request: { params: NameParam },
    responses: {
      200: deletedResponse("name"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    if (!(await stub.deleteSecret(name))) throw new ApiError(404, "not_found", `No secret ${name}.`);
    return c.json({ name, deleted: true as const }, 200);
  },
);

export default app;
