/** Per-workspace settings: the search engine for web_search and its keys (write-only). */
import { createRoute } from "@hono/zod-openapi";
import { CredentialsCleared } from "../../schemas/credentials";
import { SettingsUpdate, SettingsView } from "../../schemas/settings";
import { createApp } from "../app-factory";
import { unwrap } from "../errors";
import { workspaceStub } from "../stubs";
import { forgetWidgetConfig } from "../widget-config";
import { commonErrors, json, jsonBody } from "./route-helpers";

const app = createApp();

app.openapi(
  createRoute({
    method: "get",
    path: "/settings",
    summary: "Read the workspace's settings (keys show only whether they are set)",
    tags: ["Settings"],
    responses: { 200: json(SettingsView, "The settings"), ...commonErrors },
  }),
  async (c) => c.json(await workspaceStub(c.env, c.get("principal").workspaceId).getSettings(), 200),
);

app.openapi(
  createRoute({
    method: "put",
    path: "/settings",
    summary:
      "Change the workspace's settings; an engine chosen without its key is refused, a key whose base URL moves to another origin is dropped",
    tags: ["Settings"],
    request: { body: jsonBody(SettingsUpdate) },
    responses: {
      200: json(
        SettingsView.extend({ credentials_cleared: CredentialsCleared }),
        "The settings after the change",
      ),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { workspaceId } = c.get("principal");
    const view = unwrap(await workspaceStub(c.env, workspaceId).updateSettings(c.req.valid("json")));
    forgetWidgetConfig(workspaceId);
    return c.json(view, 200);
  },
);

export default app;
