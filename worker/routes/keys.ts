/** The caller's own workspace keys: list, create, edit allowed origins, revoke (for the dashboard). */
import { createRoute, z } from "@hono/zod-openapi";
import { CreatedKey, CreateKey, ErrorBody, KeyInfo, UpdateKey } from "../../schemas/api";
import { createApp } from "../app-factory";
import { createWorkspaceKey, revokeWorkspaceKey, updateWorkspaceKey } from "../keys";
import { workspaceStub } from "../stubs";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const KeyParam = z.object({
  keyId: z
    .string()
    .max(100)
    .openapi({ param: { name: "keyId", in: "path" }, example: "key_abc" }),
});

const app = createApp();

app.openapi(
  createRoute({
    method: "get",
    path: "/keys",
    summary: "List this workspace's keys, without their secrets",
    tags: ["Keys"],
    responses: { 200: json(z.object({ data: z.array(KeyInfo) }), "Keys"), ...commonErrors },
  }),
  async (c) => c.json({ data: await workspaceStub(c.env, c.get("principal").workspaceId).listKeys() }, 200),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/keys",
    summary: "Create a secret or publishable key; the key is shown once",
    tags: ["Keys"],
    request: { body: jsonBody(CreateKey) },
    responses: {
      201: json(CreatedKey, "The key, shown once"),
      409: json(ErrorBody, "Too many keys (`too_many_keys`): revoke one first"),
      ...commonErrors,
    },
  }),
  async (c) =>
    c.json(await createWorkspaceKey(c.env, c.get("principal").workspaceId, c.req.valid("json")), 201),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/keys/{keyId}",
    summary: "Rename a key or replace a publishable key's allowed origins",
    tags: ["Keys"],
    request: {
      params: KeyParam,
      body: jsonBody(UpdateKey),
    },
    responses: { 200: json(KeyInfo, "The key"), ...commonErrors },
  }),
  async (c) => {
    const { keyId } = c.req.valid("param");
    return c.json(
      await updateWorkspaceKey(c.env, c.get("principal").workspaceId, keyId, c.req.valid("json")),
      200,
    );
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/keys/{keyId}",
    summary: "Revoke a key",
    tags: ["Keys"],
    request: { params: KeyParam },
    responses: {
      200: deletedResponse("id", "Revoked"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { keyId } = c.req.valid("param");
    await revokeWorkspaceKey(c.env, c.get("principal").workspaceId, keyId);
    return c.json({ id: keyId, deleted: true as const }, 200);
  },
);

export default app;
