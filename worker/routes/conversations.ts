/** Conversations: create, list, read, delete. */
import { deletePrefix, recordingsPrefix } from "../../durable-objects/engine/recording/recording-store";
import { createRoute, z } from "@hono/zod-openapi";
import { workspaceFiles } from "../../durable-objects/engine/files/files-factory";
import { RESULTS_DIR } from "../../durable-objects/engine/files/result-spill";
import { randomToken } from "../../durable-objects/engine/tokens";
import { compileOutputSchema } from "../../durable-objects/engine/tools/finish";
import {
  Conversation,
  ConversationDetails,
  ConversationList,
  CreateConversation,
  UpdateConversation,
} from "../../schemas/api";
import { MessageList, MessagePageQuery } from "../../schemas/message-pages";
import { cursorPage } from "../../schemas/page";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { assertProfile, conversationStub, existingConversation, workspaceStub } from "../stubs";
import { checkMcpServerNames } from "./mcp-servers";
import { commonErrors, deletedResponse, json, jsonBody, KeysetPageQuery } from "./route-helpers";

const errors = commonErrors;
export const IdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "conv_abc123" }),
});

const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations",
    summary: "Create a conversation",
    tags: ["Conversations"],
    request: { body: jsonBody(CreateConversation, false) },
    responses: { 201: json(Conversation, "The new conversation"), ...errors },
  }),
  async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as unknown;
    const parsed = CreateConversation.safeParse(body ?? {});
    if (!parsed.success)
      throw new ApiError(400, "invalid_request", `Invalid json: ${z.prettifyError(parsed.error)}`);
    if (parsed.data.output_schema) {
      try {
        compileOutputSchema(parsed.data.output_schema);
      } catch (err) {
        throw new ApiError(400, "invalid_request", (err as Error).message);
      }
    }
    const { workspaceId } = c.get("principal");
    await assertProfile(c.env, workspaceId, parsed.data.browser_profile);
    await checkMcpServerNames(c.env, workspaceId, parsed.data.mcp_servers);
    const id = `conv_${randomToken(12)}`;
    const conv = (await conversationStub(c.env, workspaceId, id).create(id, workspaceId, parsed.data, {
      origin: new URL(c.req.url).origin,
    })) as Conversation;
    await workspaceStub(c.env, workspaceId).addConversation(id, conv.created_at, conv.title);
    return c.json(conv, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations",
    summary: "List conversations, newest first",
    tags: ["Conversations"],
    request: {
      query: KeysetPageQuery.extend({
        q: z.string().trim().max(200).optional().describe("Only conversations whose title contains this."),
      }),
    },
    responses: { 200: json(ConversationList, "A page of conversations"), ...errors },
  }),
  async (c) => {
    const { limit, cursor, q } = c.req.valid("query");
    const { workspaceId } = c.get("principal");
    const page = unwrap(
      await workspaceStub(c.env, workspaceId).listConversations(limit, cursor ?? null, q || null),
    );
    const data: Conversation[] = [];
    const convs = await Promise.all(
      page.ids.map((e) => conversationStub(c.env, workspaceId, e.id).describe()),
    );
    for (const conv of convs as (Conversation | null)[]) if (conv) data.push(conv);
    return c.json(cursorPage(data, page.hasMore, page.lastCursor), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}",
    summary: "Get a conversation: status, messages, tasks, pending question, usage",
    tags: ["Conversations"],
    request: { params: IdParam },
    responses: { 200: json(ConversationDetails, "The conversation"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const details = await conversationStub(c.env, c.get("principal").workspaceId, id).details();
    if (!details) throw new ApiError(404, "not_found", `No conversation ${id} in this workspace.`);
    return c.json(details, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/messages",
    summary: "Page through a conversation's messages (oldest first, or newest first with order=desc)",
    tags: ["Conversations"],
    request: { params: IdParam, query: MessagePageQuery },
    responses: { 200: json(MessageList, "A page of messages"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const page = await conversationStub(c.env, c.get("principal").workspaceId, id).messages(
      c.req.valid("query"),
    );
    if (!page) throw new ApiError(404, "not_found", `No conversation ${id} in this workspace.`);
    return c.json(page as MessageList, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/conversations/{id}",
    summary: "Rename a conversation",
    tags: ["Conversations"],
    request: {
      params: IdParam,
      body: jsonBody(UpdateConversation),
    },
    responses: { 200: json(Conversation, "The conversation"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { title } = c.req.valid("json");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    const conv = (await stub.setTitle(title)) as Conversation | null;
    if (!conv) throw new ApiError(404, "not_found", `No conversation ${id} in this workspace.`);
    return c.json(conv, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/conversations/{id}",
    summary: "Delete a conversation and everything it stored",
    tags: ["Conversations"],
    request: { params: IdParam },
    responses: { 200: deletedResponse("id"), ...errors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { workspaceId } = c.get("principal");
    const stub = await existingConversation(c.env, workspaceId, id);
    // destroy() resets the object after wiping it, which ends this call with an error by design.
    await stub.destroy().catch(() => {});
    await workspaceStub(c.env, workspaceId).removeConversation(id);
    // Its saved oversized tool results go with it (there may be none).
    await workspaceFiles(c.env, workspaceId)
      .remove(`${RESULTS_DIR}/${id}`)
      .catch(() => {});
    // And its browser recordings.
    await deletePrefix(c.env.FILES, recordingsPrefix(workspaceId, id));
    return c.json({ id, deleted: true as const }, 200);
  },
);

export default app;
