/** Workspaces and their API keys; the admin token only. */
import { createRoute, z } from "@hono/zod-openapi";
import { CreatedKey, CreateKey, CreateWorkspace, ErrorBody, KeyInfo, Workspace } from "../../schemas/api";
import { createApp } from "../app-factory";
import { requireAdmin } from "../auth";
import { ApiError } from "../errors";
import { createWorkspaceKey, revokeWorkspaceKey } from "../keys";
import { workspaceStub } from "../stubs";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const WorkspaceParam = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .openapi({ param: { name: "id", in: "path" }, example: "ws-1a2b3c4d5e6f" }),
});

const app = createApp();
app.use("/workspaces", requireAdmin());
app.use("/workspaces/*", requireAdmin());

/** A new workspace id: letters, digits and dashes, so keys can embed it. */
function newWorkspaceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `ws-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function existingWorkspace(env: Env, id: string) {
  const stub = workspaceStub(env, id);
  if (!(await stub.get())) throw new ApiError(404, "not_found", `No workspace ${id}.`);
  return stub;
}

app.openapi(
  createRoute({
    method: "post",
    path: "/workspaces",
    summary: "Create a workspace (admin)",
    tags: ["Workspaces"],
    request: { body: jsonBody(CreateWorkspace) },
    responses: { 201: json(Workspace, "The new workspace"), ...commonErrors },
  }),
  async (c) => {
    const id = newWorkspaceId();
    return c.json(await workspaceStub(c.env, id).init(id, c.req.valid("json").name), 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/workspaces/{id}/keys",
    summary: "List a workspace's keys, without their secrets (admin)",
    tags: ["Workspaces"],
    request: { params: WorkspaceParam },
    responses: { 200: json(z.object({ data: z.array(KeyInfo) }), "Keys"), ...commonErrors },
  }),
  async (c) => {
    const stub = await existingWorkspace(c.env, c.req.valid("param").id);
    return c.json({ data: await stub.listKeys() }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/workspaces/{id}/keys",
    summary: "Create a secret or publishable key for a workspace; the key is shown once (admin)",
    tags: ["Workspaces"],
    request: {
      params: WorkspaceParam,
      body: jsonBody(CreateKey),
    },
    responses: {
      201: json(CreatedKey, "The key, shown once"),
      409: json(ErrorBody, "Too many keys (`too_many_keys`): revoke one first"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    await existingWorkspace(c.env, id);
    return c.json(await createWorkspaceKey(c.env, id, c.req.valid("json")), 201);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/workspaces/{id}/keys/{keyId}",
    summary: "Revoke a key (admin)",
    tags: ["Workspaces"],
    request: {
      params: WorkspaceParam.extend({
        keyId: z
          .string()
          .max(100)
          .openapi({ param: { name: "keyId", in: "path" }, example: "key_abc" }),
      }),
    },
    responses: {
      200: deletedResponse("id", "Revoked"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, keyId } = c.req.valid("param");
    await existingWorkspace(c.env, id);
    await revokeWorkspaceKey(c.env, id, keyId);
    return c.json({ id: keyId, deleted: true as const }, 200);
  },
);

export default app;
