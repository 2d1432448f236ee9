/** Browser profiles of the workspace: create, list (no values), delete; and saving a conversation's browser into its profile. */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody } from "../../schemas/api";
import {
  CreateProfile,
  ProfileInfo,
  ProfileList,
  ProfileNameParam,
  ProfileSaved,
} from "../../schemas/browser-api";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { existingConversation, workspaceStub } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, deletedResponse, json, jsonBody } from "./route-helpers";

const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/browser/profiles",
    summary: "Create an empty browser profile",
    tags: ["Browser"],
    request: { body: jsonBody(CreateProfile) },
    responses: {
      201: json(ProfileInfo, "The new profile"),
      409: json(ErrorBody, "The name is taken"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    return c.json(unwrap(await stub.createProfile(c.req.valid("json").name)), 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/browser/profiles",
    summary: "List the browser profiles (sites, size, last save; never a cookie or storage value)",
    tags: ["Browser"],
    responses: { 200: json(ProfileList, "Profiles"), ...commonErrors },
  }),
  async (c) => {
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    return c.json({ data: await stub.listProfiles() }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/browser/profiles/{name}",
    summary: "Delete a browser profile",
    tags: ["Browser"],
    request: { params: z.object({ name: ProfileNameParam }) },
    responses: {
      200: deletedResponse("name"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { name } = c.req.valid("param");
    const stub = workspaceStub(c.env, c.get("principal").workspaceId);
    if (!(await stub.deleteProfile(name)))
      throw new ApiError(404, "not_found", `No browser profile ${name}.`);
    return c.json({ name, deleted: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/browser/save",
    summary: "Save the conversation's browser (cookies, local storage) into its browser profile",
    description:
      "Replaces, site by site, what the profile holds for the sites this browser knows (those it has state for and those it started with); other sites in the profile are kept, so with two conversations on one profile the later save wins for a site both touched.",
    tags: ["Browser"],
    request: { params: IdParam },
    responses: {
      200: json(ProfileSaved, "Saved"),
      409: json(ErrorBody, "The conversation has no browser profile"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.saveBrowser()), 200);
  },
);

export default app;
