/**
 * Live view of a conversation's browser: its tabs, a PNG of one tab, a tab's screencast as SSE
 * frames, and a person's trusted input into a tab.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { BrowserInput, TabList } from "../../schemas/browser-api";
import type { AppEnv } from "../app-env";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { existingConversation } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, json, jsonBody, sse } from "./route-helpers";

const TabParams = IdParam.extend({
  tab_id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: "tab_id", in: "path" }, example: 1 }),
});
const app = createApp();

/**
 * A visitor (publishable key) sees and drives only the tab a pending request_takeover handed to
 * it, while it is handed; an owner's key reaches every tab of the conversation.
 */
async function conversationFor(c: Context<AppEnv>, id: string, tabId: number) {
  const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
  if (c.get("principal").publishable && (await stub.handedTab()) !== tabId)
    throw new ApiError(
      403,
      "forbidden",
      `Tab ${tabId} is not handed to you: a visitor drives a tab only during the agent's take-over request for it.`,
    );
  return stub;
}

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

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/tabs/{tab_id}/live",
    summary: "A tab's live view: its screencast as SSE frames",
    description:
      "Each message's data is `{data: base64 JPEG, width, height, timestamp}`. At most LIVE_VIEW_MAX_FPS frames a second (default 10); a frame is sent only when the page changes, and the newest frame at once on connect. The screencast stops when the last viewer disconnects.",
    tags: ["Browser"],
    request: { params: TabParams },
    responses: { 200: sse("Frames, then heartbeats while nothing changes"), ...commonErrors },
  }),
  async (c) => {
    const { id, tab_id } = c.req.valid("param");
    const stub = await conversationFor(c, id, tab_id);
    return stub.fetch(`https://conversation/tabs/${tab_id}/live`);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/tabs/{tab_id}/input",
    summary: "Click, type or scroll in a tab as a person (trusted input)",
    description:
      "Coordinates are in the pixels of the live view's frames (the viewport's CSS pixels when no live view is open). What is typed here is never written to events or logs.",
    tags: ["Browser"],
    request: {
      params: TabParams,
      body: jsonBody(BrowserInput),
    },
    responses: { 200: json(z.object({ ok: z.literal(true) }), "Dispatched"), ...commonErrors },
  }),
  async (c) => {
    const { id, tab_id } = c.req.valid("param");
    const stub = await conversationFor(c, id, tab_id);
    return c.json(unwrap(await stub.tabInput(tab_id, c.req.valid("json"))), 200);
  },
);

export default app;
