/** The widget's entry: a publishable key opens a visitor session bound to a new conversation. */
import { createRoute } from "@hono/zod-openapi";
import { hashKey, randomToken } from "../../durable-objects/engine/tokens";
import { WidgetLook } from "../../schemas/agent-settings";
import { type Conversation, WidgetSession } from "../../schemas/api";
import { createApp } from "../app-factory";
import { ApiError } from "../errors";
import { conversationStub, workspaceStub } from "../stubs";
import { rememberVisitor } from "../widget-access";
import { widgetConfig } from "../widget-config";
import { commonErrors, json } from "./route-helpers";

const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/widget/session",
    summary: "Start a widget visitor session (publishable key, from an allowed origin)",
    description:
      "Creates a conversation for one visitor and a visitor token. With the publishable key and `X-Visitor-Token` the visitor can send messages, read events, answer and cancel on that conversation only.",
    tags: ["Widget"],
    responses: { 201: json(WidgetSession, "The visitor's conversation and token"), ...commonErrors },
  }),
  async (c) => {
    const { workspaceId, keyId, publishable } = c.get("principal");
    if (!publishable || !keyId)
      throw new ApiError(403, "forbidden", "Widget sessions are opened with a publishable key.");
    const id = `conv_${randomToken(12)}`;
    const visitorId = `vis_${randomToken(12)}`;
    const origin = c.req.header("origin") ?? "";
    const conv = (await conversationStub(c.env, workspaceId, id).create(
      id,
      workspaceId,
      { metadata: { channel: "widget", origin, key_id: keyId, visitor_id: visitorId } },
      { origin: new URL(c.req.url).origin, channel: "widget", visitorId },
    )) as Conversation;
    const visitorToken = `vt_${randomToken(24)}`;
    const visitor = { key_id: keyId, conversation_id: id };
    const tokenHash = await hashKey(visitorToken);
    await workspaceStub(c.env, workspaceId).openVisitor(conv.created_at, tokenHash, visitor);
    rememberVisitor(workspaceId, tokenHash, visitor);
    return c.json({ conversation_id: id, visitor_token: visitorToken }, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/widget/config",
    summary: "The widget's look as set in the dashboard (publishable key, from an allowed origin)",
    description:
      "Title, greeting, colour, language and position; null fields use the widget's defaults. The script tag's data attributes override them.",
    tags: ["Widget"],
    responses: { 200: json(WidgetLook, "The widget's look"), ...commonErrors },
  }),
  async (c) => {
    const { workspaceId, publishable } = c.get("principal");
    if (!publishable)
      throw new ApiError(403, "forbidden", "The widget config is read with a publishable key.");
    return c.json(await widgetConfig(c.env, workspaceId), 200);
  },
);

export default app;
