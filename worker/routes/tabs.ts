/** Live view of a conversation's browser: its tabs and a PNG of one tab. */
import { createRoute, z } from "@hono/zod-openapi";
import { TabList } from "../../shared/browser-api";
import { createApp } from "../app-factory";
import { ApiError } from "../errors";
import { existingConversation } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, json } from "./route-helpers";

const TabParams = IdParam.extend({
  tab_id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: "tab_id", in: "path" }, example: 1 }),
});
const app = createApp();

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/tabs",
    summary: "List the conversation's browser tabs",
    tags: ["Browser"],
    request: { params: IdParam },
    responses: { 200: json(TabList, "Tabs and browser session facts"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    const res = await stub.tabs();
    if (!res.ok) throw new ApiError(res.status, res.code, res.message);
    return c.json(res.value, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/tabs/{tab_id}/screenshot",
    summary: "A PNG screenshot of one tab",
    tags: ["Browser"],
    request: { params: TabParams },
    responses: {
      200: {
        content: { "image/png": { schema: { type: "string" as const, format: "binary" } } },
        description: "PNG",
      },
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, tab_id } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    const res = await stub.tabScreenshot(tab_id);
    if (!res.ok) throw new ApiError(res.status, res.code, res.message);
    return c.body(new Uint8Array(res.value), 200, {
      "content-type": "image/png",
      "cache-control": "no-store",
    });
  },
);

export default app;
