/** HTTP tools registered per workspace (`/v1/tools`) or per conversation (`/v1/conversations/{id}/http-tools`). */
import { createRoute, z } from "@hono/zod-openapi";
import { tools as customTools } from "../../durable-objects/engine/custom-tools/define";
import { RESERVED_TOOL_NAMES } from "../../durable-objects/engine/custom-tools/reserved-names";
import { randomToken } from "../../durable-objects/engine/tokens";
import { ErrorBody } from "../../schemas/api";
import { CredentialsCleared } from "../../schemas/credentials";
import {
  CreatedHttpTool,
  HttpToolSpec,
  HttpToolView,
  httpToolView,
  type StoredHttpTool,
  UpdateHttpTool,
} from "../../schemas/http-tools";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { existingConversation, workspaceStub } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const NameParam = z.object({
  name: z.string().openapi({ param: { name: "name", in: "path" }, example: "get_price" }),
});
const body = jsonBody(HttpToolSpec);
/** A registration's answers: the new tool, or 409 `too_many_tools` when the cap is reached. */
const created = {
  201: json(CreatedHttpTool, "The tool and its signing secret, shown once"),
  409: json(ErrorBody, "Too many tools (`too_many_tools`): delete one first"),
  ...commonErrors,
};
const app = createApp();

/** Checks the name is free and attaches a new signing secret. */
function prepare(spec: HttpToolSpec): StoredHttpTool {
  if (RESERVED_TOOL_NAMES.has(spec.name) || customTools.list().some((t) => t.name === spec.name)) {
    throw new ApiError(
      400,
      "name_taken",
      `The tool name "${spec.name}" is taken by a built-in or deployed tool.`,
    );
  }
  return { ...spec, secret: `whsec_${randomToken(24)}`, created_at: Date.now() };
}

app.openapi(
  createRoute({
    method: "post",
    path: "/tools",
    summary: "Register an HTTP tool for every conversation of the workspace",
    tags: ["Tools"],
    request: { body },
    responses: created,
  }),
  async (c) => {
    const tool = prepare(c.req.valid("json"));
    unwrap(await workspaceStub(c.env, c.get("principal").workspaceId).putHttpTool(tool));
    return c.json({ ...httpToolView(tool), secret: tool.secret }, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/tools",
    summary: "List the workspace's HTTP tools",
    tags: ["Tools"],
    responses: { 200: json(z.object({ data: z.array(HttpToolView) }), "Tools"), ...commonErrors },
  }),
  async (c) => {
    const list = (await workspaceStub(c.env, c.get("principal").workspaceId).httpTools()) as StoredHttpTool[];
    return c.json({ data: list.map(httpToolView) }, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/tools/{name}",
    summary: "Change a workspace HTTP tool (its signing secret stays)",
    description:
      "A `url` on another origin without `headers` drops the stored headers (`credentials_cleared: true`): they were given for the old host only.",
    tags: ["Tools"],
    request: { params: NameParam, body: jsonBody(UpdateHttpTool) },
    responses: {
      200: json(HttpToolView.extend({ credentials_cleared: CredentialsCleared }), "The tool"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    const ws = workspaceStub(c.env, c.get("principal").workspaceId);
    const updated = (await ws.updateHttpTool(name, c.req.valid("json"))) as {
      tool: StoredHttpTool;
      cleared: boolean;
    } | null;
    if (!updated) throw new ApiError(404, "not_found", `No HTTP tool named ${name}.`);
    return c.json({ ...httpToolView(updated.tool), credentials_cleared: updated.cleared }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/tools/{name}",
    summary: "Remove a workspace HTTP tool",
    tags: ["Tools"],
    request: { params: NameParam },
    responses: {
      200: deletedResponse("name", "Removed"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    if (!(await workspaceStub(c.env, c.get("principal").workspaceId).deleteHttpTool(name))) {
      throw new ApiError(404, "not_found", `No HTTP tool named ${name}.`);
    }
    return c.json({ name, deleted: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/http-tools",
    summary: "Register an HTTP tool for one conversation",
    tags: ["Tools"],
    request: { params: IdParam, body },
    responses: created,
  }),
  async (c) => {
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, c.req.valid("param").id);
    const tool = prepare(c.req.valid("json"));
    unwrap(await stub.putHttpTool(tool));
    return c.json({ ...httpToolView(tool), secret: tool.secret }, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/http-tools",
    summary: "List a conversation's own HTTP tools",
    tags: ["Tools"],
    request: { params: IdParam },
    responses: { 200: json(z.object({ data: z.array(HttpToolView) }), "Tools"), ...commonErrors },
  }),
  async (c) => {
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, c.req.valid("param").id);
    return c.json({ data: ((await stub.httpTools()) as StoredHttpTool[]).map(httpToolView) }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/conversations/{id}/http-tools/{name}",
    summary: "Remove a conversation's HTTP tool",
    tags: ["Tools"],
    request: { params: IdParam.merge(NameParam) },
    responses: {
      200: deletedResponse("name", "Removed"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    if (!(await stub.deleteHttpTool(name)))
      throw new ApiError(404, "not_found", `No HTTP tool named ${name}.`);
    return c.json({ name, deleted: true as const }, 200);
  },
);

export default app;
